import { delimiter, join } from 'node:path';
import { isExecutable } from './isExecutable';

let cached: Promise<string | undefined> | undefined;

/** bash if there is one (PATH first, then /bin), else sh; undefined when neither exists. */
export function findShell(): Promise<string | undefined> {
  cached ??= (async () => {
    const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
    const suffix = process.platform === 'win32' ? ['.exe', ''] : [''];
    for (const name of ['bash', 'sh']) {
      for (const dir of [...dirs, '/bin', '/usr/bin']) {
        for (const ext of suffix) {
          const candidate = join(dir, name + ext);
          if (await isExecutable(candidate)) return candidate;
        }
      }
    }
    return undefined;
  })();
  return cached;
}
