import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

let cached: Promise<string | undefined> | undefined;

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'ENOTDIR')) {
      return false;
    }
    throw err;
  }
}

/** bash if there is one (PATH first, then /bin), else sh; undefined when neither exists. */
export function findShell(): Promise<string | undefined> {
  cached ??= (async () => {
    const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
    const suffix = process.platform === 'win32' ? ['.exe', ''] : [''];
    for (const name of ['bash', 'sh']) {
      for (const dir of [...dirs, '/bin', '/usr/bin']) {
        for (const ext of suffix) {
          const candidate = join(dir, name + ext);
          if (await executable(candidate)) return candidate;
        }
      }
    }
    return undefined;
  })();
  return cached;
}
