import type { WordValue } from './commandOptions';

/**
 * The options of a command known to only read (files, the repository) and print. Anything
 * not listed is not known to be read-only: `sort -o`, `sed -i`, `find -delete`,
 * `git log --output`, `tar -x` are simply absent.
 */
interface ReadSpec {
  /** Single-letter options without an argument. */
  flags?: string;
  /** Single-letter options that take an argument (attached or the next word). */
  withArg?: string;
  /** `-5` for `-n 5`. */
  numeric?: boolean;
  /** Long options: `--x` a flag, `--x=` takes a value (`--x=v` or `--x v`), `--x?` an optional `=value`. */
  long?: readonly string[];
  /** find's expression words (`-name X`): each with how many arguments it takes. */
  primaries?: Readonly<Record<string, number>>;
  /** Every option is harmless (echo). */
  anyOption?: boolean;
  /** Most operands: uniq's second operand is a file it writes. */
  maxOperands?: number;
  /** At least one of these options must be given (tar lists, it does not extract). */
  requires?: readonly string[];
}

const color = ['--color?', '--colour?', '--no-color'];
const gitLogLike: ReadSpec = {
  flags: 'pQsu',
  withArg: 'nSG',
  numeric: true,
  long: [
    '--oneline', '--stat', '--shortstat', '--numstat', '--name-only', '--name-status', '--graph', '--decorate?', '--no-decorate',
    '--all', '--reverse', '--no-merges', '--merges', '--first-parent', '--follow', '--patch', '--no-patch', '--abbrev-commit',
    '--format=', '--pretty?', '--author=', '--committer=', '--since=', '--until=', '--after=', '--before=', '--grep=',
    '--max-count=', '--skip=', '--date=', '--no-ext-diff', '--no-textconv', ...color,
  ],
};
const gitDiff: ReadSpec = {
  flags: 'wbR',
  withArg: 'U',
  long: [
    '--stat', '--shortstat', '--numstat', '--name-only', '--name-status', '--cached', '--staged', '--unified=', '--ignore-all-space',
    '--ignore-space-change', '--exit-code', '--quiet', '--check', '--no-ext-diff', '--no-textconv', '--word-diff?', ...color,
  ],
};
const gitStatus: ReadSpec = { flags: 'sb', long: ['--short', '--branch', '--porcelain?', '--long', '--ignored?', '--untracked-files?', '--no-renames'] };
const gitSubcommands: Readonly<Record<string, ReadSpec>> = { log: gitLogLike, show: gitLogLike, diff: gitDiff, status: gitStatus };

const commands: Readonly<Record<string, ReadSpec>> = {
  cat: { flags: 'nbsAETvet', long: ['--number', '--number-nonblank', '--squeeze-blank', '--show-all'] },
  head: { flags: 'qvz', withArg: 'nc', numeric: true, long: ['--lines=', '--bytes=', '--quiet', '--verbose'] },
  tail: { flags: 'qvzfF', withArg: 'nc', numeric: true, long: ['--lines=', '--bytes=', '--quiet', '--verbose', '--follow?'] },
  wc: { flags: 'lwcmL', long: ['--lines', '--words', '--bytes', '--chars', '--max-line-length'] },
  ls: { flags: 'laAhRtrSd1FiogGnpsuUvxXcC', long: ['--all', '--almost-all', '--human-readable', '--recursive', '--classify', ...color] },
  pwd: { flags: 'LP' },
  echo: { anyOption: true },
  grep: {
    flags: 'rRniIlLcvwxoqsEFHhzZ',
    withArg: 'efABCm',
    long: [
      '--include=', '--exclude=', '--exclude-dir=', '--line-number', '--recursive', '--ignore-case', '--files-with-matches',
      '--files-without-match', '--count', '--fixed-strings', '--extended-regexp', '--invert-match', '--word-regexp',
      '--only-matching', '--quiet', '--no-messages', '--with-filename', '--no-filename', ...color,
    ],
  },
  diff: { flags: 'uqrNiwbBsaty', withArg: 'UC', long: ['--unified?', '--brief', '--recursive', '--new-file', '--ignore-case', ...color] },
  sort: {
    flags: 'bdfgiMhnRrVcCsuz',
    withArg: 'kt',
    long: [
      '--reverse', '--numeric-sort', '--general-numeric-sort', '--human-numeric-sort', '--version-sort', '--month-sort', '--unique',
      '--ignore-case', '--ignore-leading-blanks', '--dictionary-order', '--stable', '--check?', '--key=', '--field-separator=', '--zero-terminated',
    ],
  },
  uniq: {
    flags: 'cdDiuz',
    withArg: 'fsw',
    long: ['--count', '--repeated', '--unique', '--ignore-case', '--skip-fields=', '--skip-chars=', '--check-chars=', '--zero-terminated'],
    maxOperands: 1,
  },
  tar: { flags: 'tvzjJ', withArg: 'f', long: ['--list', '--verbose', '--file=', '--gzip', '--bzip2', '--xz'], requires: ['-t', '--list'] },
  find: {
    primaries: {
      '-L': 0, '-H': 0, '-P': 0, '-maxdepth': 1, '-mindepth': 1, '-depth': 0, '-xdev': 0, '-mount': 0, '-name': 1, '-iname': 1,
      '-path': 1, '-ipath': 1, '-wholename': 1, '-regex': 1, '-iregex': 1, '-type': 1, '-xtype': 1, '-size': 1, '-empty': 0,
      '-mtime': 1, '-mmin': 1, '-atime': 1, '-amin': 1, '-ctime': 1, '-cmin': 1, '-newer': 1, '-perm': 1, '-user': 1,
      '-group': 1, '-links': 1, '-readable': 0, '-writable': 0, '-executable': 0, '-true': 0, '-false': 0, '-prune': 0,
      '-print': 0, '-print0': 0, '-printf': 1, '-ls': 0, '-not': 0, '-a': 0, '-and': 0, '-o': 0, '-or': 0, '!': 0, '(': 0, ')': 0,
    },
  },
};

/**
 * Why a command, as its words stand, is not known to only read; undefined when it is one of
 * a small table of common commands used with options known to be read-only. Without an OS
 * sandbox this is what lets an allow rule run a command unasked: anything else asks.
 */
export function notReadOnly(words: readonly WordValue[]): string | undefined {
  const name = words[0];
  if (name === null || name === undefined) return 'the command is not known until it runs';
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(name)) return `it sets ${name.slice(0, name.indexOf('=') + 1)}… for the command`;
  if (name === 'git') return gitNotReadOnly(words);
  const spec = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!spec) return `\`${name}\` is not one of the commands Keel knows to only read`;
  return spec.primaries ? primariesProblem(words, spec.primaries) : optionsProblem(name, words.slice(1), spec);
}

function gitNotReadOnly(words: readonly WordValue[]): string | undefined {
  const sub = words[1];
  const spec = typeof sub === 'string' && Object.hasOwn(gitSubcommands, sub) ? gitSubcommands[sub] : undefined;
  if (!spec) return `\`git ${sub ?? ''}\` is not one of the git commands Keel knows to only read (${Object.keys(gitSubcommands).join(', ')})`;
  return optionsProblem(`git ${sub}`, words.slice(2), spec);
}

function primariesProblem(words: readonly WordValue[], primaries: Readonly<Record<string, number>>): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === null) return 'an argument is not known until the command runs';
    if (!w.startsWith('-') && w !== '!' && w !== '(' && w !== ')') continue;
    const args = Object.hasOwn(primaries, w) ? primaries[w] : undefined;
    if (args === undefined) return `\`${words[0]} ${w}\` is not known to only read`;
    i += args;
  }
  return undefined;
}

function optionsProblem(name: string, args: readonly WordValue[], spec: ReadSpec): string | undefined {
  const seen = new Set<string>();
  let operands = 0;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w === null) return 'an argument is not known until the command runs';
    if (options && w === '--') {
      options = false;
      continue;
    }
    if (!options || !w.startsWith('-') || w === '-') {
      operands++;
      continue;
    }
    if (spec.anyOption) continue;
    const step = optionStep(w, args[i + 1], spec, seen);
    if (typeof step === 'string') return `\`${name} ${w}\` is not known to only read`;
    i += step;
  }
  if (spec.maxOperands !== undefined && operands > spec.maxOperands) return `\`${name}\` with more than ${spec.maxOperands} file writes its output to the last one`;
  if (spec.requires && !spec.requires.some((r) => seen.has(r))) return `\`${name}\` without ${spec.requires.join(' or ')} is not known to only read`;
  return undefined;
}

/** How many following words the option takes (0 or 1), or a problem. */
function optionStep(word: string, next: WordValue | undefined, spec: ReadSpec, seen: Set<string>): number | 'unknown' {
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = eq < 0 ? word : word.slice(0, eq);
    const long = spec.long ?? [];
    seen.add(name);
    if (eq < 0 && long.includes(name)) return 0;
    if (long.includes(`${name}?`)) return 0;
    if (long.includes(`${name}=`)) return eq < 0 ? (next === undefined ? 'unknown' : 1) : 0;
    return 'unknown';
  }
  if (spec.numeric && /^-[0-9]+$/.test(word)) return 0;
  for (let k = 1; k < word.length; k++) {
    const letter = word[k];
    seen.add(`-${letter}`);
    if (spec.flags?.includes(letter)) continue;
    if (spec.withArg?.includes(letter)) return k + 1 < word.length ? 0 : next === undefined ? 'unknown' : 1;
    return 'unknown';
  }
  return 0;
}
