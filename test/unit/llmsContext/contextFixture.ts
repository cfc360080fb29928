import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temp folder with helpers to write files and run git in it. */
export interface TempTree {
  root: string;
  write(rel: string, content?: string): string;
  git(...args: string[]): string;
  cleanup(): void;
}

export function tempTree(prefix = 'keel-ctx-'): TempTree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const root = join(base, 'ws');
  mkdirSync(root);
  return {
    root,
    write(rel, content = '') {
      const path = join(root, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    git(...args) {
      return execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@e.st', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@e.st' },
      });
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}
