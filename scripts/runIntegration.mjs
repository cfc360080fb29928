// Integration tests inside a real VS Code extension host, without a desktop VS Code:
// bundles test/integration/runner + the suites, starts code-server's bundled VS Code server
// (server-main), opens the workbench in Chromium with the extension folder as
// extensionDevelopmentPath and the runner as extensionTestsPath, streams the mocha output
// to this terminal and exits with the tests' code.
//
// Usage: node scripts/runIntegration.mjs [--extension DIR] [--with-extension DIR]... [--workspace DIR]
//          [--suites PATH]... [--env KEY=VALUE]... [--grep RE] [--no-build] [--trust] [--locale LANG] [--timeout-ms N]
// --locale: VS Code's display language for the run (zh-cn, with the fixture language pack), for test/integration/zhCn.
// --trust: Workspace Trust on and the folder untrusted (Restricted Mode), for test/integration/untrusted.
// Keel's own run also installs the extensions in test/fixtures/extensions (other extensions that
// use Keel's API) into the run's extensions folder, linked as they are; --with-extension names others.
// Every environment variable named KEEL_* is passed on to the extension host too (for
// example the scripted model server's URL started by a parent process).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ensureAptPackages } from './lib/apt.mjs';
import { bundleTests, collectFiles } from './lib/bundle.mjs';
import { chromiumPath, launchChromium } from './lib/chromium.mjs';
import { repoRoot } from './lib/paths.mjs';
import { log, seconds, step, withTimeout } from './lib/steps.mjs';
import { copyWorkspace, devWorkbenchUrl, launchServer, makeRunDir, tail } from './codeServer/launch.mjs';
import { buildExtension } from './packageVsix.mjs';

const PREFIX = 'integration';
export const defaultSuites = join(repoRoot, 'test', 'integration', 'suite');
export const defaultWorkspace = join(repoRoot, 'test', 'fixtures', 'workspaces', 'sample');
export const fixtureExtensionsDir = join(repoRoot, 'test', 'fixtures', 'extensions');

/** The fixture extensions (folders with a package.json) loaded next to Keel in its own runs. */
export function fixtureExtensions() {
  if (!existsSync(fixtureExtensionsDir)) return [];
  return readdirSync(fixtureExtensionsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(fixtureExtensionsDir, entry.name, 'package.json')))
    .map((entry) => join(fixtureExtensionsDir, entry.name));
}

export function parseEnvPairs(pairs) {
  const env = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--env expects KEY=VALUE, got "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

// The runner's own controls: the rig sets them for each run, so the caller's never leak in (a
// KEEL_TEST_GREP left in a shell must not silently narrow `npm test`; only --grep narrows).
const RUNNER_CONTROLS = new Set(['KEEL_TEST_GREP', 'KEEL_TEST_REPORT_FILE', 'KEEL_TEST_SUITES_DIR', 'KEEL_TEST_COLOR']);

export function keelEnvFromProcess(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith('KEEL_') && !RUNNER_CONTROLS.has(key)));
}

/**
 * The run's outcome from the runner's summary line (`integration: N passed, M failed`): a run
 * with no summary, or one where no test ran, fails whatever exit code the workbench reported.
 */
export function reportOutcome(report, exitCode) {
  const match = /^integration: (\d+) passed, (\d+) failed$/m.exec(report);
  if (!match) return { code: exitCode === 0 ? 1 : exitCode, problem: 'the runner wrote no summary' };
  const passed = Number(match[1]);
  const failed = Number(match[2]);
  if (passed + failed === 0) return { code: 1, problem: 'no integration test ran' };
  return { code: failed > 0 && exitCode === 0 ? 1 : exitCode, problem: undefined };
}

// Copies new bytes of a growing file to stdout until stopped.
function followFile(file, write = (text) => process.stdout.write(text)) {
  let offset = 0;
  const pump = () => {
    if (!existsSync(file)) return;
    const size = statSync(file).size;
    if (size <= offset) return;
    const text = readFileSync(file).subarray(offset, size).toString('utf8');
    offset = size;
    write(text);
  };
  const timer = setInterval(pump, 200);
  return () => {
    clearInterval(timer);
    pump();
  };
}

export async function bundleIntegration(outDir, suitePaths) {
  rmSync(outDir, { recursive: true, force: true });
  const runnerEntry = join(repoRoot, 'test', 'integration', 'runner', 'index.ts');
  await bundleTests({ entryPoints: [runnerEntry], outdir: join(outDir, 'runner') });
  const suites = collectFiles(suitePaths, '.test.ts');
  if (suites.length === 0) throw new Error(`no *.test.ts files in ${suitePaths.join(', ')}`);
  const outbase = suitePaths.length === 1 && statSync(suitePaths[0]).isDirectory() ? resolve(suitePaths[0]) : undefined;
  await bundleTests({ entryPoints: suites, outdir: join(outDir, 'suite'), outbase });
  log(PREFIX, `bundled ${suites.length} suite file(s) into ${join(outDir, 'suite')}`);
  return { runner: join(outDir, 'runner', 'index.js'), suitesDir: join(outDir, 'suite') };
}

/**
 * Runs the integration suites; resolves to the process exit code (0 when all passed).
 * @param {object} options
 * @param {string} [options.extensionDir] the extension under test (default: the repo)
 * @param {string[]} [options.withExtensions] more extension folders loaded next to it (default for
 *   the repo: test/fixtures/extensions/*)
 * @param {string} [options.workspace] folder to open (copied into the run folder first)
 * @param {string[]} [options.suites] suite files or folders of *.test.ts
 * @param {Record<string,string>} [options.env] extension host environment for the tests
 * @param {string} [options.grep] mocha grep
 * @param {boolean} [options.build] run `npm run build` in the extension folder first
 * @param {boolean} [options.workspaceTrust] start with Workspace Trust on (folder untrusted: Restricted Mode)
 * @param {string} [options.locale] VS Code's display language (the workbench's `vscode.nls.locale` cookie)
 * @param {number} [options.timeoutMs] for the whole run
 */
export async function runIntegration(options = {}) {
  const started = Date.now();
  const extensionDir = resolve(options.extensionDir ?? repoRoot);
  const withExtensions = (options.withExtensions ?? (extensionDir === repoRoot ? fixtureExtensions() : [])).map((p) => resolve(p));
  const suitePaths = (options.suites?.length ? options.suites : [defaultSuites]).map((p) => resolve(p));
  const timeoutMs = options.timeoutMs ?? 15 * 60_000;
  const runDir = makeRunDir('integration');
  const reportFile = join(runDir, 'mocha-output.txt');
  const outDir = join(repoRoot, 'out', `integration-${process.pid}`);
  let server;
  let browser;
  let stopFollowing = () => {};
  let code = 1;
  try {
    await step(PREFIX, 'Debian packages (chromium, bubblewrap)', () => ensureAptPackages(['chromium', 'bubblewrap'], PREFIX));
    chromiumPath();
    if (options.build ?? true) await buildExtension(extensionDir);
    const bundled = await step(PREFIX, 'bundle runner and suites', () => bundleIntegration(outDir, suitePaths));
    const workspace = copyWorkspace(options.workspace ?? defaultWorkspace, runDir);
    server = await step(PREFIX, 'start VS Code server (server-main)', () =>
      launchServer({ kind: 'vscode-server', runDir, workspaceTrust: options.workspaceTrust ?? false, linkExtensions: withExtensions }),
    );
    const testEnv = {
      ...keelEnvFromProcess(),
      ...options.env,
      KEEL_TEST_REPORT_FILE: reportFile,
      KEEL_TEST_SUITES_DIR: bundled.suitesDir,
      KEEL_TEST_COLOR: process.stdout.isTTY ? '1' : '0',
      ...(options.grep ? { KEEL_TEST_GREP: options.grep } : {}),
    };
    const url = devWorkbenchUrl(server, {
      folder: workspace,
      extensionDevelopmentPath: extensionDir,
      extensionTestsPath: bundled.runner,
      env: testEnv,
    });
    browser = await step(PREFIX, 'start Chromium', () => launchChromium());
    const { page } = browser;
    // The workbench calls window.codeAutomationExit(code) when the tests end (or fail to
    // load); it has to exist before the page loads.
    let exitWith;
    const exited = new Promise((r) => { exitWith = r; });
    await page.exposeFunction('codeAutomationExit', (exitCode) => {
      exitWith(Number(exitCode));
    });
    const browserErrors = [];
    page.on('pageerror', (error) => browserErrors.push(error.message));
    page.on('console', (message) => {
      // First lines only: the full stacks are in the kept extension host log.
      if (message.type() === 'error' && !isBrowserNoise(message.text())) browserErrors.push(message.text().split('\n').slice(0, 6).join('\n'));
    });
    stopFollowing = followFile(reportFile);
    const alongside = withExtensions.length ? ` with ${withExtensions.length} more extension(s) loaded` : '';
    log(PREFIX, `running tests of ${extensionDir}${alongside} (${seconds(Date.now() - started)} so far)`);
    // The web workbench takes its display language from this cookie; the extension host follows it.
    if (options.locale) await page.context().addCookies([{ name: 'vscode.nls.locale', value: options.locale, url }]);
    await page.goto(url, { timeout: 60_000 });
    const remaining = Math.max(timeoutMs - (Date.now() - started), 10_000);
    code = await withTimeout(exited, remaining, 'the integration tests (no codeAutomationExit call)').catch((error) => {
      log(PREFIX, `${error.message}\n${tail(server.logFile)}`);
      return 1;
    });
    stopFollowing();
    const outcome = reportOutcome(existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '', code);
    if (outcome.problem && code === 0) log(PREFIX, `failing the run: ${outcome.problem}`);
    code = outcome.code;
    if (code !== 0) {
      if (!existsSync(reportFile)) log(PREFIX, `the test runner wrote nothing: it probably failed to load\n${tail(server.logFile)}`);
      // Errors of the extension host (an extension that fails to activate, a rejected
      // run()) show up in the workbench's console.
      if (browserErrors.length) log(PREFIX, `errors in the workbench console:\n${browserErrors.slice(-20).join('\n')}`);
      keepArtifacts(runDir, server.logFile);
    }
    return code;
  } finally {
    stopFollowing();
    await browser?.close().catch((error) => log(PREFIX, `closing Chromium failed: ${error.message}`));
    await server?.stop({ removeRunDir: false }).catch((error) => log(PREFIX, `stopping the server failed: ${error.message}`));
    rmSync(runDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
    log(PREFIX, `finished with code ${code} in ${seconds(Date.now() - started)}`);
  }
}

// Chromium's complaints about the service worker and missing static files are not about
// the tests, and the runner's "N of M integration tests failed" repeats mocha's report.
function isBrowserNoise(text) {
  return /Failed to load resource|Service Worker|bad HTTP response code|Manifest fetch from|integration tests failed|Canceled: Canceled/.test(text);
}

// The run folder goes away; its logs are worth keeping when something failed.
function keepArtifacts(runDir, serverLog) {
  const target = join(repoRoot, 'test-results', `integration-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(target, { recursive: true });
  if (existsSync(serverLog)) cpSync(serverLog, join(target, 'server.log'));
  const report = join(runDir, 'mocha-output.txt');
  if (existsSync(report)) cpSync(report, join(target, 'mocha-output.txt'));
  // server-main writes its own and the extension host's logs under the user-data folder.
  const logs = join(runDir, 'user-data', 'logs');
  if (existsSync(logs)) cpSync(logs, join(target, 'logs'), { recursive: true });
  log(PREFIX, `logs kept in ${target}`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      extension: { type: 'string' },
      'with-extension': { type: 'string', multiple: true },
      workspace: { type: 'string' },
      suites: { type: 'string', multiple: true, default: [] },
      env: { type: 'string', multiple: true, default: [] },
      grep: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      trust: { type: 'boolean', default: false },
      locale: { type: 'string' },
      'timeout-ms': { type: 'string' },
    },
  });
  const code = await runIntegration({
    workspaceTrust: values.trust,
    locale: values.locale,
    extensionDir: values.extension,
    withExtensions: values['with-extension'],
    workspace: values.workspace,
    suites: values.suites,
    env: parseEnvPairs(values.env),
    grep: values.grep,
    build: !values['no-build'],
    timeoutMs: values['timeout-ms'] ? Number(values['timeout-ms']) : undefined,
  });
  process.exitCode = code;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main()
    .catch((error) => {
      console.error(`[${PREFIX}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    })
    .finally(() => {
      // A test that timed out may still hold handles (a browser, a socket): they must not
      // keep a finished run alive. unref() lets a clean run exit at once.
      setTimeout(() => process.exit(process.exitCode ?? 1), 3_000).unref();
    });
}
