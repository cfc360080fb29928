import { relative, sep } from 'node:path';
import { compileGlob } from '../../workspace/globPattern';

/**
 * A grep `glob` filter with ripgrep's meaning: a glob without `/` matches the file name at
 * any depth (`*.ts`, `*.{ts,tsx}`), one with `/` matches the path below the search root,
 * and a leading `!` excludes what it matches.
 */
export interface GlobFilter {
  glob: string;
  basenameOnly: boolean;
  negate: boolean;
  regex: RegExp;
}

export function createGlobFilter(glob: string): GlobFilter {
  const negate = glob.startsWith('!');
  let pattern = negate ? glob.slice(1) : glob;
  const basenameOnly = !pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  return { glob, basenameOnly, negate, regex: compileGlob(pattern, { braces: true }) };
}

/** Whether a file found under one of `roots` passes the filter. */
export function globFilterAccepts(filter: GlobFilter, roots: readonly string[], file: string): boolean {
  return globMatches(filter, roots, file) !== filter.negate;
}

function globMatches(filter: GlobFilter, roots: readonly string[], file: string): boolean {
  if (filter.basenameOnly) {
    const name = file.slice(file.lastIndexOf(sep) + 1);
    return filter.regex.test(name);
  }
  const root = roots
    .filter((r) => file === r || file.startsWith(r.endsWith(sep) ? r : r + sep))
    .reduce<string | undefined>((best, r) => (best === undefined || r.length > best.length ? r : best), undefined);
  if (root === undefined || root === file) return filter.regex.test(file.slice(file.lastIndexOf(sep) + 1));
  return filter.regex.test(relative(root, file).split(sep).join('/'));
}
