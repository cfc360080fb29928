import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { SessionStore } from '../../../src/core/session/sessionStore';

/** Real temporary folders, removed by `cleanup()` (call it in afterEach). */
export class TempDirs {
  private readonly made: string[] = [];

  make(prefix = 'keel-session-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.made.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.made.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

export interface Sandbox {
  home: string;
  root: string;
  warnings: string[];
  store: SessionStore;
}

/** A KEEL_HOME and one workspace folder named `name` inside a fresh temp dir. */
export function sandbox(dirs: TempDirs, name = 'app'): Sandbox {
  const base = dirs.make();
  const home = join(base, 'keel-home');
  const root = join(base, name);
  mkdirSync(root, { recursive: true });
  const warnings: string[] = [];
  const store = new SessionStore({ home, workspace: { root }, onWarning: (m) => warnings.push(m) });
  return { home, root, warnings, store };
}

export function user(text: string): ModelMessage {
  return { role: 'user', content: text };
}

export function assistant(text: string): ModelMessage {
  return { role: 'assistant', content: text };
}
