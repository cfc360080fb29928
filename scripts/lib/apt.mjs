// Debian packages the rig needs (chromium, ripgrep, libkrb5-dev): checked with dpkg and
// installed with apt-get when this runs as root, otherwise a loud error saying what to run.
import { execFileSync } from 'node:child_process';
import { log, run } from './steps.mjs';

function isInstalled(pkg) {
  try {
    const status = execFileSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return status.includes('install ok installed');
  } catch (error) {
    // dpkg-query exits 1 for an unknown package: that just means "not installed".
    if (error.status === 1) return false;
    throw error;
  }
}

export async function ensureAptPackages(packages, prefix = 'apt') {
  const missing = packages.filter((pkg) => !isInstalled(pkg));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`missing Debian packages: ${missing.join(' ')} — run: sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(prefix, `installing missing Debian packages: ${missing.join(' ')} (apt-get update && apt-get install -y)`);
  await run('apt-get', ['update'], { env, timeoutMs: 10 * 60_000 });
  await run('apt-get', ['install', '-y', ...missing], { env, timeoutMs: 20 * 60_000 });
}
