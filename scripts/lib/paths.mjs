// Where the rig finds things: the repo it lives in, the Node 22 that runs VS Code's server,
// and the cache that holds code-server between runs.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

// code-server 4.117 must run on Node 22 (the system node here is 20), so every child that
// runs VS Code's server gets the binary from the project's `node` devDependency by path.
export function projectNode() {
  const bin = join(repoRoot, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(bin)) {
    throw new Error(`Node 22 from the "node" devDependency is missing at ${bin}: run npm ci in ${repoRoot}`);
  }
  return bin;
}

// The cache is keyed on the code-server version below; KEEL_CODE_SERVER_CACHE moves it
// (for example to share one install between several clones).
export function codeServerCacheRoot() {
  const fromEnv = process.env.KEEL_CODE_SERVER_CACHE;
  return fromEnv ? resolve(fromEnv) : join(repoRoot, '.cache', 'code-server');
}

