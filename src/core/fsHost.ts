import type { Host, WriteReport } from './host';
import { writeFileNoFollow } from './workspace/noFollowFiles';

export interface FsHostOptions {
  log?: Host['log'];
  ripgrepPath?: string;
  displayLanguage?: string;
}

/**
 * A Host that writes straight to disk (the CLI, tests, benches). Writes are atomic: a temp
 * file in the same directory is renamed over the target, so a crash never leaves half a file,
 * and the existing file's permission bits are kept. No link on the way is followed, so a
 * command racing the write cannot redirect it (noFollowFiles).
 */
export function createFsHost(opts: FsHostOptions = {}): Host {
  const log: Host['log'] = opts.log ?? (() => undefined);
  return {
    kind: 'cli',
    log,
    ripgrepPath: opts.ripgrepPath,
    displayLanguage: opts.displayLanguage,
    async writeFile(absPath: string, content: string | null): Promise<WriteReport> {
      // Encoding first is measurably faster than handing writeFile a large string.
      await writeFileNoFollow(absPath, content === null ? null : Buffer.from(content, 'utf8'));
      return {};
    },
  };
}
