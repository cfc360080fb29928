// Browser tests against a real code-server with the extension installed as a user would
// have it: build, package as .vsix, install into a fresh extensions folder, start
// code-server on a copy of the sample workspace, then run test/e2e/*.e2e.ts with mocha
// (bundled by esbuild) in this process. Failing tests leave screenshots in test-results/.
//
// Usage: node scripts/runE2e.mjs [--extension DIR] [--workspace DIR] [--env KEY=VALUE]...
//          [--grep RE] [--no-build] [--trust] [--timeout-ms N] [test files or folders...]
// Every environment variable named KEEL_* reaches the server and so the extension host.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ensureAptPackages } from './lib/apt.mjs';
import { bundleTests, collectFiles } from './lib/bundle.mjs';
import { chromiumPath } from './lib/chromium.mjs';
import { repoRoot } from './lib/paths.mjs';
import { mochaVerdict, runMochaFiles } from './lib/mochaRun.mjs';
import { log, seconds, step, withTimeout } from './lib/steps.mjs';
import { copyWorkspace, launchServer, makeRunDir } from './codeServer/launch.mjs';
import { buildExtension, extensionIdOf, packageVsix } from './packageVsix.mjs';
import { fixtureExtensions, keelEnvFromProcess, parseEnvPairs } from './runIntegration.mjs';

const PREFIX = 'e2e';
const defaultTests = join(repoRoot, 'test', 'e2e');
const defaultWorkspace = join(repoRoot, 'test', 'fixtures', 'workspaces', 'sample');

function runMochaWithSourceMaps(files, options) {
  // The tests are bundled with inline source maps: failures should point at the .ts lines.
  process.setSourceMapsEnabled(true);
  return runMochaFiles(files, options);
}

/**
 * Runs the browser tests; resolves to the exit code (0 when all passed).
 * @param {object} options
 * @param {string} [options.extensionDir] the extension under test (default: the repo)
 * @param {string} [options.workspace] folder to open (copied into the run folder first)
 * @param {string[]} [options.tests] *.e2e.ts files or folders holding them (default: test/e2e)
 * @param {Record<string,string>} [options.env] environment for the server and extension host
 * @param {string} [options.grep]
 * @param {boolean} [options.build] run `npm run build` in the extension folder first
 * @param {boolean} [options.workspaceTrust] start with Workspace Trust on (folder untrusted)
 * @param {number} [options.testTimeoutMs] per test
 * @param {number} [options.timeoutMs] for the whole run
 */
export async function runE2e(options = {}) {
  const started = Date.now();
  const extensionDir = resolve(options.extensionDir ?? repoRoot);
  const testPaths = options.tests?.length ? options.tests : [defaultTests];
  const resultsDir = join(repoRoot, 'test-results');
  const runDir = makeRunDir('e2e');
  const outDir = join(repoRoot, 'out', `e2e-${process.pid}`);
  let server;
  let code = 1;
  try {
    await step(PREFIX, 'Debian packages (chromium, bubblewrap, a CJK font)', () => ensureAptPackages(['chromium', 'bubblewrap', 'fonts-wqy-microhei'], PREFIX));
    chromiumPath();
    const files = collectFiles(testPaths, '.e2e.ts');
    if (files.length === 0) throw new Error(`no *.e2e.ts files in ${testPaths.join(', ')}`);
    if (options.build ?? true) await buildExtension(extensionDir, { production: true });
    const vsix = await packageVsix(extensionDir, { out: join(runDir, 'extension.vsix') });
    await step(PREFIX, `bundle ${files.length} test file(s)`, () => bundleTests({ entryPoints: files, outdir: outDir }));
    const bundled = collectFiles([outDir], '.e2e.js');
    const workspace = copyWorkspace(options.workspace ?? defaultWorkspace, runDir);
    // Sessions of the run stay in its own folder, never in the person's ~/.keel; the tests
    // (this process) and the extension host (given every KEEL_* variable) both read it.
    process.env.KEEL_HOME = join(runDir, 'keel-home');
    server = await step(PREFIX, 'start code-server with the packaged extension', () => launchServer({
      kind: 'code-server',
      runDir,
      folder: workspace,
      vsix: [vsix],
      // Other extensions that use Keel's API or provide VS Code models, installed as they are.
      linkExtensions: extensionDir === repoRoot ? fixtureExtensions() : [],
      workspaceTrust: options.workspaceTrust ?? false,
      env: { ...keelEnvFromProcess(), ...options.env },
    }));
    log(PREFIX, `code-server at ${server.url}`);
    // The harness (test/e2e/harness/e2eEnv.ts) reads these.
    Object.assign(process.env, {
      KEEL_E2E_URL: server.url,
      KEEL_E2E_WORKSPACE: workspace,
      // The person's own settings: Keel takes its endpoint and approval mode only from there.
      KEEL_E2E_USER_SETTINGS: join(server.runDir, 'user-data', 'User', 'settings.json'),
      KEEL_E2E_RESULTS: resultsDir,
      KEEL_E2E_EXTENSION_ID: extensionIdOf(extensionDir),
    });
    const remaining = Math.max((options.timeoutMs ?? 20 * 60_000) - (Date.now() - started), 10_000);
    const { failures, passed, skipped } = await withTimeout(
      runMochaWithSourceMaps(bundled, { grep: options.grep, timeoutMs: options.testTimeoutMs ?? 60_000 }),
      remaining, 'the e2e tests');
    console.log(`e2e: ${passed} passed, ${failures} failed, ${skipped} skipped`);
    const verdict = mochaVerdict({ failures, passed, skipped });
    if (verdict.problem) log(PREFIX, `${verdict.problem}: the run fails`);
    code = verdict.code;
    return code;
  } finally {
    if (server) {
      if (code !== 0 && existsSync(server.logFile)) {
        mkdirSync(resultsDir, { recursive: true });
        const kept = join(resultsDir, `e2e-server-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
        cpSync(server.logFile, kept);
        log(PREFIX, `server log kept in ${kept}`);
      }
      await server.stop({ removeRunDir: false }).catch((error) => log(PREFIX, `stopping the server failed: ${error.message}`));
    }
    rmSync(runDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
    log(PREFIX, `finished with code ${code} in ${seconds(Date.now() - started)}`);
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      extension: { type: 'string' },
      workspace: { type: 'string' },
      env: { type: 'string', multiple: true, default: [] },
      grep: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      trust: { type: 'boolean', default: false },
      'timeout-ms': { type: 'string' },
    },
  });
  process.exitCode = await runE2e({
    extensionDir: values.extension,
    workspace: values.workspace,
    tests: positionals,
    env: parseEnvPairs(values.env),
    grep: values.grep,
    build: !values['no-build'],
    workspaceTrust: values.trust,
    timeoutMs: values['timeout-ms'] ? Number(values['timeout-ms']) : undefined,
  });
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
