import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Host, WriteReport } from './host';
import { errorCode } from './errorCode';

export interface FsHostOptions {
  log?: Host['log'];
  ripgrepPath?: string;
  displayLanguage?: string;
}

/**
 * A Host that writes straight to disk (the CLI, tests, benches). Writes are atomic: a temp
 * file in the same directory is renamed over the target, so a crash never leaves half a file,
 * and the existing file's permission bits are kept.
 */
export function createFsHost(opts: FsHostOptions = {}): Host {
  const log: Host['log'] = opts.log ?? (() => undefined);
  return {
    kind: 'cli',
    log,
    ripgrepPath: opts.ripgrepPath,
    displayLanguage: opts.displayLanguage,
    async writeFile(absPath: string, content: string | null): Promise<WriteReport> {
      if (content === null) {
        await rm(absPath, { force: true });
        return {};
      }
      const dir = dirname(absPath);
      await mkdir(dir, { recursive: true });
      let mode: number | undefined;
      try {
        mode = (await stat(absPath)).mode & 0o7777;
      } catch (err) {
        if (errorCode(err) !== 'ENOENT') throw err;
      }
      const temp = join(dir, `.${basename(absPath)}.keel-${randomBytes(6).toString('hex')}.tmp`);
      try {
        // Encoding first is measurably faster than handing writeFile a large string.
        await writeFile(temp, Buffer.from(content, 'utf8'), { flag: 'wx' });
        if (mode !== undefined) await chmod(temp, mode);
        await rename(temp, absPath);
      } catch (err) {
        await rm(temp, { force: true }).catch((cleanupErr: unknown) =>
          log('warn', `Could not remove temporary file ${temp}: ${String(cleanupErr)}`),
        );
        throw err;
      }
      return {};
    },
  };
}
