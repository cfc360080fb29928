import { lstat, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hiddenAround } from './hiddenAround';
import type { LayoutPath } from './sandboxTypes';
import { isGoneOrForbidden } from '../goneErrors';

/** Credentials in the person's home that no command needs to read. */
const homeSecrets = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker',
  '.config/gh',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.pgpass',
  // Package registries' tokens.
  '.npmrc',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.composer/auth.json',
  '.config/composer/auth.json',
  '.config/containers/auth.json',
  '.m2/settings-security.xml',
  // Cloud, infrastructure and password-store logins.
  '.config/hub',
  '.vault-token',
  '.terraform.d/credentials.tfrc.json',
  '.boto',
  '.s3cfg',
  '.oci',
  '.config/op',
  '.password-store',
  '.local/share/keyrings',
];

export interface SecretOptions {
  home: string;
  keelHome: string;
  /** The workspace folders: `.env` files inside them are the project's own. */
  folders: string[];
  uid?: number;
}

/**
 * What the sandbox hides: the person's credentials, Keel's own home, `.env` files beside
 * and above the workspace and in the home's project folders, the session's sockets (agent,
 * bus, editor) and the Docker socket (root on the machine).
 */
export async function secretPaths(opts: SecretOptions): Promise<LayoutPath[]> {
  const candidates = [...homeSecrets.map((s) => join(opts.home, s)), opts.keelHome, '/var/run/docker.sock', '/run/docker.sock'];
  if (opts.uid !== undefined) candidates.push(`/run/user/${opts.uid}`);
  const out: LayoutPath[] = [];
  for (const path of candidates) {
    // Hidden even inside a workspace folder (a workspace opened on the home folder).
    const kind = await kindOf(path);
    if (!kind) continue;
    // A worktree Keel made under its own home is a workspace folder: the rest of the home stays hidden around it.
    const inside = kind === 'dir' ? opts.folders.filter((f) => f.startsWith(`${path}/`)) : [];
    if (inside.length > 0) out.push(...(await hiddenAround(path, inside)));
    else out.push({ path, kind });
  }
  const envDirs = new Set<string>([opts.home]);
  for (const folder of opts.folders) {
    for (let dir = dirname(folder); ; dir = dirname(dir)) {
      envDirs.add(dir);
      if (dirname(dir) === dir) break;
    }
  }
  for (const entry of await listDirs(opts.home)) envDirs.add(entry);
  for (const dir of envDirs) {
    if (insideAny(dir, opts.folders)) continue;
    for (const file of await envFiles(dir)) out.push({ path: file, kind: 'file' });
  }
  return out;
}

async function kindOf(path: string): Promise<'dir' | 'file' | undefined> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return undefined;
    return info.isDirectory() ? 'dir' : 'file';
  } catch (err) {
    if (isGoneOrForbidden(err)) return undefined;
    throw err;
  }
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => join(dir, e.name));
  } catch (err) {
    if (isGoneOrForbidden(err)) return [];
    throw err;
  }
}

async function envFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile() && /^\.env(\..+)?$/.test(e.name)).map((e) => join(dir, e.name));
  } catch (err) {
    if (isGoneOrForbidden(err)) return [];
    throw err;
  }
}

function insideAny(path: string, folders: string[]): boolean {
  return folders.some((f) => path === f || path.startsWith(f.endsWith('/') ? f : `${f}/`));
}
