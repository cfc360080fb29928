import { walkFiles, type WalkResult } from './fileWalker';
import { ripgrepBaseArgs, runRipgrep } from './ripgrep';
import type { SearchEngine } from './searchEngine';

/** Every searchable file under the roots (see walkFiles), by ripgrep or by the built-in walker. */
export async function listFiles(
  roots: readonly string[],
  engine: SearchEngine,
  opts: { signal: AbortSignal; maxFiles: number },
): Promise<WalkResult> {
  if (engine.kind === 'js') return walkFiles(roots, opts);
  const files: string[] = [];
  let truncated = false;
  const run = await runRipgrep(engine.rgPath, [...ripgrepBaseArgs, '--files', '--null', '--', ...roots], {
    signal: opts.signal,
    separator: '\0',
    onLine: (path) => {
      if (path === '') return true;
      if (files.length >= opts.maxFiles) {
        truncated = true;
        return false;
      }
      files.push(path);
      return true;
    },
  });
  const stderr = run.stderr.trim();
  if (run.code === 2 && files.length === 0 && stderr !== '') throw new Error(`ripgrep could not list files: ${stderr}`);
  return { files, truncated, warnings: run.code === 2 && stderr !== '' ? stderr.split('\n') : [] };
}
