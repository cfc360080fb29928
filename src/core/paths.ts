import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, extname, isAbsolute, join, resolve } from 'node:path';
import { sha256 } from './sha256';

/** Where Keel keeps its own data: `$KEEL_HOME`, else `~/.keel`. Always absolute. */
export function keelHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.KEEL_HOME?.trim();
  if (!configured) return join(homedir(), '.keel');
  // Shells expand `~` but launch configs and .env files often do not.
  if (configured === '~') return homedir();
  if (configured.startsWith('~/') || configured.startsWith('~\\')) return join(homedir(), configured.slice(2));
  return isAbsolute(configured) ? configured : resolve(configured);
}

/** Everything Keel stores for one workspace. */
export function projectDir(home: string, workspaceKey: string): string {
  return join(home, 'projects', workspaceKey);
}

/** The session logs of one workspace. */
export function sessionsDir(home: string, workspaceKey: string): string {
  return join(projectDir(home, workspaceKey), 'sessions');
}

export interface WorkspaceIdentity {
  /** The (first) workspace folder. */
  root: string;
  /** The `.code-workspace` file of a multi-root workspace: it, not a folder, names the workspace. */
  workspaceFile?: string;
}

/**
 * A folder name for the workspace: a readable slug plus 10 hex of the sha256 of the real path,
 * so two checkouts named `app` stay apart and opening the same folder through a symlink
 * finds the same sessions.
 */
export function workspaceKey(workspace: WorkspaceIdentity): string {
  const anchor = workspace.workspaceFile ?? workspace.root;
  const real = canonicalPath(anchor);
  const name = workspace.workspaceFile ? basename(real, extname(real)) : basename(real);
  const hash = sha256(real).slice(0, 10);
  return `${slug(name)}-${hash}`;
}

function canonicalPath(p: string): string {
  const absolute = resolve(p);
  let real: string;
  try {
    real = realpathSync.native(absolute);
  } catch (err) {
    // A folder that does not exist (yet) still needs a stable key; only a missing path is expected here.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    real = absolute;
  }
  // NTFS is case-insensitive and drive letters arrive in either case.
  return process.platform === 'win32' ? real.toLowerCase() : real;
}

function slug(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return ascii || 'workspace';
}
