import { relative, sep } from 'node:path';
import { compileGlob } from '../../workspace/globPattern';

/**
 * A grep `glob` filter with ripgrep's meaning: a glob without `/` matches the file name at
 * any depth (`*.ts`, `*.{ts,tsx}`), one with `/` matches the path below the search root.
 */
export interface GlobFilter {
  glob: string;
  basenameOnly: boolean;
  regex: RegExp;
}

export function createGlobFilter(glob: string): GlobFilter {
  const basenameOnly = !glob.includes('/');
  const pattern = glob.startsWith('/') ? glob.slice(1) : glob;
  return { glob, basenameOnly, regex: compileGlob(pattern, { braces: true }) };
}

/** Whether a file found under one of `roots` passes the filter. */
export function globFilterAccepts(filter: GlobFilter, roots: readonly string[], file: string): boolean {
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
