// The same integration suites on a desktop machine with internet, through
// @vscode/test-electron (it downloads a desktop VS Code, which these machines cannot).
// The runner (test/integration/runner) has the standard run() form and, without a report
// file in its environment, prints mocha's output to the console, which test-electron
// forwards here. On a Linux machine without a display run it under xvfb-run.
//
// Usage: node scripts/runIntegrationElectron.mjs [--extension DIR] [--workspace DIR]
//          [--suites PATH]... [--env KEY=VALUE]... [--grep RE] [--no-build]
//          [--vscode-version V | --vscode-executable PATH (an installed VS Code, no download)]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';
import { copyWorkspace } from './codeServer/launch.mjs';
import { repoRoot } from './lib/paths.mjs';
import { log } from './lib/steps.mjs';
import { buildExtension } from './packageVsix.mjs';
import { bundleIntegration, defaultSuites, defaultWorkspace, fixtureExtensions, keelEnvFromProcess, parseEnvPairs } from './runIntegration.mjs';

const PREFIX = 'integration-electron';

async function main() {
  const { values } = parseArgs({
    options: {
      extension: { type: 'string' },
      workspace: { type: 'string' },
      suites: { type: 'string', multiple: true, default: [] },
      env: { type: 'string', multiple: true, default: [] },
      grep: { type: 'string' },
      'vscode-version': { type: 'string', default: 'stable' },
      'vscode-executable': { type: 'string' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const extensionDir = resolve(values.extension ?? repoRoot);
  const suitePaths = (values.suites.length ? values.suites : [defaultSuites]).map((p) => resolve(p));
  const runDir = mkdtempSync(join(tmpdir(), 'keel-electron-'));
  const outDir = join(repoRoot, 'out', `integration-electron-${process.pid}`);
  try {
    if (!values['no-build']) await buildExtension(extensionDir);
    const bundled = await bundleIntegration(outDir, suitePaths);
    const workspace = copyWorkspace(values.workspace ?? defaultWorkspace, runDir);
    await runTests({
      ...(values['vscode-executable']
        ? { vscodeExecutablePath: resolve(values['vscode-executable']) }
        : { version: values['vscode-version'] }),
      // Desktop VS Code loads several development extensions: Keel's runs add the fixture
      // extensions that use its API (test/fixtures/extensions).
      extensionDevelopmentPath: [extensionDir, ...(extensionDir === repoRoot ? fixtureExtensions() : [])],
      extensionTestsPath: bundled.runner,
      extensionTestsEnv: {
        ...keelEnvFromProcess(),
        ...parseEnvPairs(values.env),
        KEEL_TEST_SUITES_DIR: bundled.suitesDir,
        ...(values.grep ? { KEEL_TEST_GREP: values.grep } : {}),
      },
      // A fresh profile and no other extensions (test-electron adds trust off, no welcome).
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--user-data-dir', join(runDir, 'user-data'),
        '--extensions-dir', join(runDir, 'extensions'),
      ],
    });
    log(PREFIX, 'all integration tests passed');
  } finally {
    rmSync(runDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  // runTests rejects with TestRunFailedError when the tests fail; mocha printed the details.
  console.error(`[${PREFIX}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
