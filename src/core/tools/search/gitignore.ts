import { compileGlob } from '../../workspace/globPattern';

export interface IgnoreRule {
  regex: RegExp;
  /** `!pattern`: re-includes what an earlier rule excluded. */
  negate: boolean;
  /** `pattern/`: matches folders only. */
  dirOnly: boolean;
}

/**
 * Parses a .gitignore the way git reads it: `#` comments, `!` negation, `\` escapes,
 * trailing spaces trimmed unless escaped, a trailing `/` for folders only, and patterns
 * with a `/` before the end anchored to the .gitignore's folder (others match at any depth).
 */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = trimUnescapedTrailingSpaces(raw);
    if (line === '' || line.startsWith('#')) continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/') && !line.endsWith('\\/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const glob = anchored ? line : `**/${line}`;
    rules.push({ regex: compileGlob(glob), negate, dirOnly });
  }
  return rules;
}

function trimUnescapedTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ' && line[end - 2] !== '\\') end--;
  return line.slice(0, end);
}

/**
 * The verdict of one .gitignore for a path relative to its folder: the last matching rule
 * wins; undefined when no rule matches (a shallower .gitignore then decides).
 */
export function gitignoreVerdict(rules: readonly IgnoreRule[], relPath: string, isDir: boolean): 'ignore' | 'include' | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i];
    if (rule.dirOnly && !isDir) continue;
    if (rule.regex.test(relPath)) return rule.negate ? 'include' : 'ignore';
  }
  return undefined;
}
