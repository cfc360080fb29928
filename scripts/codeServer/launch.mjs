// Starts a VS Code server from the code-server cache in a throwaway run folder:
// - kind 'code-server': code-server itself (npm start, browser e2e; can install .vsix files);
// - kind 'vscode-server': the bundled lib/vscode/out/server-main.js, which (unlike
//   code-server) accepts extension development and test paths through the workbench URL.
// CLI: node scripts/codeServer/launch.mjs [--kind code-server|vscode-server] [--vsix file]... [folder]
import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ensureCodeServer } from './install.mjs';
import { projectNode, repoRoot } from '../lib/paths.mjs';
import { killGroup, log, run, seconds, withTimeout } from '../lib/steps.mjs';

const PREFIX = 'launch';

// Settings every run starts with: no welcome page or walkthrough stealing the editor area,
// no telemetry or update pings to hosts we cannot reach, no extension auto-updates.
export const baseSettings = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  // The built-in chat would otherwise claim the secondary sidebar and ask to sign in.
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

// Short paths on purpose: VS Code puts unix sockets in TMPDIR, and a socket path must stay
// under ~107 bytes, which a run folder deep inside a clone could exceed.
export function makeRunDir(label) {
  return mkdtempSync(join(tmpdir(), `keel-${label}-`));
}

function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

// Environment for the server: XDG folders and TMPDIR inside the run folder so nothing
// lands in the home folder or leaves sockets in /tmp; Node 22 first on PATH for terminals
// and tasks; variables of an enclosing VS Code removed so they cannot redirect this one.
function serverEnv(runDir, extraEnv) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  const xdg = {
    XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
    XDG_DATA_HOME: join(runDir, 'xdg', 'data'),
    XDG_CACHE_HOME: join(runDir, 'xdg', 'cache'),
    XDG_STATE_HOME: join(runDir, 'xdg', 'state'),
    TMPDIR: join(runDir, 'tmp'),
  };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true });
  // An empty gallery switches the marketplace off: otherwise the server keeps asking
  // open-vsx.org (unreachable here) about every installed extension.
  const gallery = { EXTENSIONS_GALLERY: '{}' };
  return { ...env, ...xdg, ...gallery, PATH: `${dirname(projectNode())}:${process.env.PATH}`, ...extraEnv };
}

function writeJson(file, value) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

// A language is offered only when languagepacks.json in the user-data folder lists a pack for it
// (VS Code writes the file when it scans extensions, which may be after the first page load):
// write the entries of the linked extensions that contribute `localizations` before the start.
function writeLanguagePacks(userData, extensionFolders) {
  const packs = {};
  for (const folder of extensionFolders) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    for (const localization of manifest.contributes?.localizations ?? []) {
      const translations = {};
      for (const t of localization.translations ?? []) translations[t.id] = resolve(folder, t.path);
      packs[localization.languageId.toLowerCase()] = {
        hash: `${manifest.publisher}.${manifest.name}-${manifest.version}`,
        extensions: [{ extensionIdentifier: { id: `${manifest.publisher}.${manifest.name}` }, version: manifest.version }],
        translations,
        label: localization.localizedLanguageName ?? localization.languageName,
      };
    }
  }
  if (Object.keys(packs).length > 0) writeJson(join(userData, 'languagepacks.json'), packs);
}

async function waitForHttp(url, timeoutMs, child, logFile) {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before answering ${url}\n${tail(logFile)}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer ${url} within ${seconds(timeoutMs)} (${lastError})\n${tail(logFile)}`);
}

export function tail(file, lines = 40) {
  if (!existsSync(file)) return `(no log at ${file})`;
  const text = readFileSync(file, 'utf8').trimEnd().split('\n');
  return `--- last ${Math.min(lines, text.length)} lines of ${file} ---\n${text.slice(-lines).join('\n')}`;
}

/**
 * Starts a server and waits until it answers HTTP.
 * @param {object} options
 * @param {'code-server'|'vscode-server'} [options.kind]
 * @param {string} [options.folder] workspace folder the workbench URL opens
 * @param {string[]} [options.vsix] packaged extensions to install first (code-server only)
 * @param {string[]} [options.linkExtensions] extension folders linked into the extensions folder
 *   before start (installed as they are, no packaging; Node resolves their requires from the
 *   real folder). For other extensions next to one under development: the web workbench takes
 *   a single extensionDevelopmentPath (its payload is read into a Map).
 * @param {object} [options.settings] user settings merged over baseSettings
 * @param {boolean} [options.workspaceTrust] false (default): trust is off, everything runs;
 *   true: trust on and the folder untrusted (restricted mode), without the startup prompt
 * @param {string} [options.runDir] run folder (default: a fresh one under the temp folder)
 * @param {Record<string,string>} [options.env] extra environment for the server and its extension host
 * @param {string[]} [options.extraArgs] more server arguments
 * @param {number} [options.port] default: a free one
 * @param {number} [options.startTimeoutMs]
 */
export async function launchServer(options = {}) {
  const kind = options.kind ?? 'code-server';
  if (kind !== 'code-server' && kind !== 'vscode-server') throw new Error(`unknown server kind ${kind}`);
  const layout = await ensureCodeServer();
  const node = projectNode();
  const runDir = options.runDir ?? makeRunDir(kind);
  const ownsRunDir = !options.runDir;
  const dirs = {
    userData: join(runDir, 'user-data'),
    extensions: join(runDir, 'extensions'),
    serverData: join(runDir, 'server-data'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  for (const folder of options.linkExtensions ?? []) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    symlinkSync(resolve(folder), join(dirs.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');
  }
  const logFile = join(runDir, 'server.log');
  const env = serverEnv(runDir, options.env ?? {});
  const trust = options.workspaceTrust ?? false;
  const settings = {
    ...baseSettings,
    'security.workspace.trust.enabled': trust,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.untrustedFiles': 'open',
    ...options.settings,
  };
  // code-server reads user settings from its user-data folder; server-main's web client
  // keeps them in the browser, so there the remote (machine) settings carry them too.
  writeJson(join(dirs.userData, 'User', 'settings.json'), settings);
  writeJson(join(dirs.userData, 'Machine', 'settings.json'), settings);
  writeJson(join(dirs.serverData, 'data', 'Machine', 'settings.json'), settings);
  // The display language comes from --locale, else argv.json's "locale", else the browser's
  // `vscode.nls.locale` cookie or Accept-Language; a missing argv.json means English whatever
  // the browser asks, so an empty one lets a browser test pick its language (Keel's zh-cn test).
  if (!existsSync(join(dirs.userData, 'User', 'argv.json'))) writeJson(join(dirs.userData, 'User', 'argv.json'), {});
  writeLanguagePacks(dirs.userData, options.linkExtensions ?? []);

  const commonArgs = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--disable-telemetry'];
  if (!trust) commonArgs.push('--disable-workspace-trust');

  if (options.vsix?.length) {
    if (kind !== 'code-server') throw new Error('vsix installs need kind code-server');
    for (const vsix of options.vsix) {
      log(PREFIX, `installing ${vsix}`);
      await run(node, [layout.entry, ...commonArgs, '--install-extension', resolve(vsix), '--force'], { env, quiet: true, timeoutMs: 120_000 })
        .catch((error) => { throw new Error(`installing ${vsix} into ${dirs.extensions} failed: ${error.message}`); });
    }
  }

  const port = options.port ?? await freePort();
  const host = '127.0.0.1';
  const args = kind === 'code-server'
    ? [layout.entry, '--bind-addr', `${host}:${port}`, '--auth', 'none', '--disable-update-check',
      '--disable-getting-started-override', '--ignore-last-opened', ...commonArgs]
    : [layout.serverMain, '--host', host, '--port', String(port), '--without-connection-token',
      '--accept-server-license-terms', '--enable-smoke-test-driver', '--server-data-dir', dirs.serverData, ...commonArgs];
  args.push(...(options.extraArgs ?? []));
  if (kind === 'code-server' && options.folder) args.push(resolve(options.folder));

  const logFd = openSync(logFile, 'a');
  // detached makes the server a session and process-group leader (what `setsid` does), so
  // stop() can signal the whole group: extension host, pty host and file watchers included.
  const child = spawn(node, args, { cwd: runDir, env, detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const exited = new Promise((r) => child.once('exit', r));
  child.on('error', (error) => log(PREFIX, `server process error: ${error.message}`));

  const base = `http://${host}:${port}`;
  const folderQuery = options.folder
    ? `?${isWorkspaceFile(options.folder) ? 'workspace' : 'folder'}=${encodeURIComponent(resolve(options.folder))}`
    : '';
  let stopped = false;
  const server = {
    kind,
    port,
    host,
    baseUrl: base,
    url: `${base}/${folderQuery}`,
    runDir,
    logFile,
    dirs,
    layout,
    pid: child.pid,
    exited,
    /** Stops the whole process group; SIGKILL after graceMs. removeRunDir defaults to whether launch created it. */
    async stop({ graceMs = 5_000, removeRunDir = ownsRunDir } = {}) {
      if (!stopped) {
        stopped = true;
        if (killGroup(child.pid, 'SIGTERM')) {
          let timer;
          const done = await Promise.race([
            exited.then(() => true),
            new Promise((r) => { timer = setTimeout(() => r(false), graceMs); }),
          ]);
          clearTimeout(timer);
          if (!done) log(PREFIX, `server group ${child.pid} ignored SIGTERM for ${seconds(graceMs)}: SIGKILL`);
        }
        // Whatever of the group is still alive (an extension host lingering after the
        // server exited) goes now.
        killGroup(child.pid, 'SIGKILL');
      }
      if (removeRunDir) rmSync(runDir, { recursive: true, force: true });
    },
  };
  try {
    const healthPath = kind === 'code-server' ? '/healthz' : '/version';
    await waitForHttp(`${base}${healthPath}`, options.startTimeoutMs ?? 60_000, child, logFile);
  } catch (error) {
    await server.stop({ removeRunDir: false });
    throw error;
  }
  return server;
}

/**
 * Copies a workspace folder into the run folder so tests can change it freely. Given a
 * `.code-workspace` file (a multi-root workspace), copies the folder holding it (with the
 * folders it names relative to it) and returns the copied file's path.
 */
export function copyWorkspace(source, runDir) {
  const target = join(runDir, 'workspace');
  const file = isWorkspaceFile(source) ? resolve(source) : undefined;
  cpSync(file ? dirname(file) : resolve(source), target, { recursive: true, filter: (src) => !src.includes(`${'/'}node_modules`) });
  return file ? join(target, basename(file)) : target;
}

/** A multi-root workspace file: the workbench opens it with `?workspace=` instead of `?folder=`. */
export function isWorkspaceFile(path) {
  return path.endsWith('.code-workspace');
}

// vscode-remote URIs for the workbench URL's `payload`: paths the server opens on its side.
export function remoteUri(server, absolutePath) {
  return `vscode-remote://${server.host}:${server.port}${resolve(absolutePath)}`;
}

/**
 * Workbench URL for an extension-development test run on a 'vscode-server' launch.
 * @param {object} server what launchServer returned
 * @param {{folder: string, extensionDevelopmentPath: string, extensionTestsPath?: string, env?: Record<string,string>}} options
 *   `folder` may be a `.code-workspace` file: the workbench then opens that multi-root workspace.
 */
export function devWorkbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath, env }) {
  const payload = [['extensionDevelopmentPath', remoteUri(server, extensionDevelopmentPath)]];
  if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(server, extensionTestsPath)]);
  if (env && Object.keys(env).length) payload.push(['extensionEnvironment', JSON.stringify(env)]);
  const opened = isWorkspaceFile(folder) ? { workspace: resolve(folder) } : { folder: resolve(folder) };
  const query = new URLSearchParams({ ...opened, payload: JSON.stringify(payload) });
  return `${server.baseUrl}/?${query.toString()}`;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      kind: { type: 'string', default: 'code-server' },
      vsix: { type: 'string', multiple: true, default: [] },
      trust: { type: 'boolean', default: false },
    },
  });
  const folder = positionals[0] ?? join(repoRoot, 'test', 'fixtures', 'workspaces', 'sample');
  const server = await withTimeout(
    launchServer({ kind: values.kind, folder, vsix: values.vsix, workspaceTrust: values.trust }),
    15 * 60_000, 'starting the server');
  log(PREFIX, `${server.kind} is up: ${server.url}`);
  log(PREFIX, `run folder ${server.runDir}, log ${server.logFile}; Ctrl+C stops it`);
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    log(PREFIX, `${signal}: stopping`);
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => { void stop('SIGINT'); });
  process.on('SIGTERM', () => { void stop('SIGTERM'); });
  const code = await server.exited;
  if (!stopping) {
    log(PREFIX, `server exited by itself (${code})\n${tail(server.logFile)}`);
    await server.stop({ removeRunDir: false });
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`[${PREFIX}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
