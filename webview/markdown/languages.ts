/**
 * Just enough of each language for a readable code block: comments, strings, numbers,
 * keywords, literals. Not a parser; a wrong colour is fine, a wrong character is not.
 */
export interface LanguageSpec {
  keywords: ReadonlySet<string>;
  literals: ReadonlySet<string>;
  lineComments: readonly string[];
  blockComments: readonly (readonly [string, string])[];
  /** Quote characters; a backslash escapes the next character inside them. */
  quotes: string;
  /** Python's ''' and """ strings. */
  tripleQuotes?: boolean;
  /** Identifiers may contain '-' (CSS, YAML keys, shell options). */
  dashedWords?: boolean;
  /** Mark `Capitalized` words as types. */
  capitalizedTypes?: boolean;
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

const cLiterals = words('true false null undefined nullptr NaN Infinity this self super nil None True False');

const javascript: LanguageSpec = {
  keywords: words(`break case catch class const continue debugger default delete do else export extends finally for
    from function if import in instanceof let new of return static switch throw try typeof var void while with yield
    async await as interface type enum implements namespace declare readonly private protected public abstract
    keyof satisfies infer is get set`),
  literals: cLiterals,
  lineComments: ['//'],
  blockComments: [['/*', '*/']],
  quotes: `"'\``,
  capitalizedTypes: true,
};

const cFamily: LanguageSpec = {
  keywords: words(`auto break case catch char class const continue default delete do double else enum extern final
    float for goto if import include inline int long namespace new operator package private protected public return
    short signed sizeof static struct switch template throw throws try typedef typename union unsigned using virtual
    void volatile while boolean byte extends implements instanceof interface synchronized var val fun object override
    func go chan defer fallthrough map range select type fn let mut impl trait pub use mod crate match loop where
    move ref dyn async await unsafe string bool internal sealed readonly foreach in is as lock out params`),
  literals: cLiterals,
  lineComments: ['//'],
  blockComments: [['/*', '*/']],
  quotes: `"'\``,
  capitalizedTypes: true,
};

const python: LanguageSpec = {
  keywords: words(`and as assert async await break class continue def del elif else except finally for from global
    if import in is lambda nonlocal not or pass raise return try while with yield match case print`),
  literals: words('True False None self cls'),
  lineComments: ['#'],
  blockComments: [],
  quotes: `"'`,
  tripleQuotes: true,
  capitalizedTypes: true,
};

const shell: LanguageSpec = {
  keywords: words(`if then else elif fi for while until do done case esac in function return local export readonly
    unset shift source alias set echo exit cd sudo`),
  literals: words('true false'),
  lineComments: ['#'],
  blockComments: [],
  quotes: `"'`,
  dashedWords: true,
};

const json: LanguageSpec = {
  keywords: words(''),
  literals: words('true false null'),
  lineComments: ['//'],
  blockComments: [['/*', '*/']],
  quotes: '"',
};

const yaml: LanguageSpec = {
  keywords: words(''),
  literals: words('true false null yes no on off ~'),
  lineComments: ['#'],
  blockComments: [],
  quotes: `"'`,
  dashedWords: true,
};

const css: LanguageSpec = {
  keywords: words('important media import from to and not only supports keyframes font-face'),
  literals: words('none auto inherit initial unset'),
  lineComments: [],
  blockComments: [['/*', '*/']],
  quotes: `"'`,
  dashedWords: true,
};

const sql: LanguageSpec = {
  keywords: words(`select from where and or not insert into values update set delete create table drop alter add
    index primary key foreign references join left right inner outer on group by order having limit offset as
    distinct union all case when then else end in is like between exists returning with default constraint`),
  literals: words('null true false'),
  lineComments: ['--'],
  blockComments: [['/*', '*/']],
  quotes: `"'`,
};

const markup: LanguageSpec = {
  keywords: words(''),
  literals: words(''),
  lineComments: [],
  blockComments: [['<!--', '-->']],
  quotes: `"'`,
  dashedWords: true,
};

const byName: Record<string, LanguageSpec> = {};
const alias = (spec: LanguageSpec, names: string): void => {
  for (const name of names.split(' ')) byName[name] = spec;
};
alias(javascript, 'js javascript jsx mjs cjs ts typescript tsx mts cts');
alias(cFamily, 'c h cpp c++ cc hpp cs csharp java kotlin kt go golang rust rs swift php scala dart');
alias(python, 'py python python3');
alias(shell, 'sh bash zsh shell console shellscript fish ps1 powershell');
alias(json, 'json jsonc json5');
alias(yaml, 'yaml yml toml ini');
alias(css, 'css scss less');
alias(sql, 'sql');
alias(markup, 'html xml svg vue');

/** The spec for a fence's info string, or undefined (the block is shown plain). */
export function languageFor(name: string | undefined): LanguageSpec | undefined {
  if (!name) return undefined;
  const key = name.trim().toLowerCase().split(/[\s{]/)[0] ?? '';
  return Object.hasOwn(byName, key) ? byName[key] : undefined;
}

/** SQL keywords are matched without regard to case. */
export function isCaseInsensitive(spec: LanguageSpec): boolean {
  return spec === sql;
}
