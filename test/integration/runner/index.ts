// The entry VS Code loads as `extensionTestsPath` (bundled to out/integration/runner/index.js):
// it runs every compiled suite (out/integration/suite/**/*.test.js) with mocha inside the
// extension host. Same `run()` contract under @vscode/test-electron and under our
// code-server rig (scripts/runIntegration.mjs).
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { countRun, runVerdict } from './runCount.ts';
import { reportFileFromEnv, suitesDirFromEnv } from './runnerEnv.ts';
import { sourceMappedStack } from './sourceMappedStack.ts';

function findSuiteFiles(dir: string): string[] {
  if (!existsSync(dir)) {
    throw new Error(`integration suites folder ${dir} does not exist`);
  }
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => join(dir, name));
}

// In a browser-driven run the extension host's stdout reaches no terminal, so the parent
// passes a file path and tails it; under test-electron console output is forwarded as is.
function routeReporterOutput(reportFile: string | undefined): void {
  if (!reportFile) return;
  const original = Mocha.reporters.Base.consoleLog;
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
    appendFileSync(reportFile, `${format(...args)}\n`);
    original(...args);
  };
}

// Failing tests were already reported by mocha; only other errors need telling.
class TestsFailed extends Error {}

export async function run(): Promise<void> {
  const reportFile = reportFileFromEnv();
  try {
    await runSuites(reportFile);
  } catch (error) {
    // VS Code only logs a rejected run() to the browser console and the extension host
    // log; the report file puts the reason where the person running the tests looks.
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    if (reportFile && !(error instanceof TestsFailed)) appendFileSync(reportFile, `\nintegration runner: ${sourceMappedStack(text)}\n`);
    throw error;
  }
}

function runSuites(reportFile: string | undefined): Promise<void> {
  // Suites are bundled with inline source maps: failures should point at the .ts lines.
  process.setSourceMapsEnabled(true);
  routeReporterOutput(reportFile);
  // Only the rig's --grep sets it (scripts/runIntegration.mjs drops one inherited from its caller).
  const grep = process.env.KEEL_TEST_GREP || undefined;
  const mocha = new Mocha({
    ui: 'bdd',
    color: Boolean(reportFile) && process.env.KEEL_TEST_COLOR === '1',
    timeout: Number(process.env.KEEL_TEST_TIMEOUT_MS ?? 20_000),
    grep,
  });
  // Suites may use either describe/it or VS Code's suite/test style.
  Mocha.interfaces.tdd(mocha.suite);

  const dir = suitesDirFromEnv() ?? resolve(__dirname, '..', 'suite');
  const files = findSuiteFiles(dir);
  if (files.length === 0) {
    return Promise.reject(new Error(`no *.test.js files under ${dir}: nothing to run`));
  }
  for (const file of files) mocha.addFile(file);

  return new Promise<void>((resolvePromise, reject) => {
    const runner = mocha.run(() => {
      const passed = counted.passed();
      const failed = counted.failed();
      const summary = `integration: ${passed} passed, ${failed} failed`;
      if (reportFile) appendFileSync(reportFile, `${summary}\n`);
      console.log(summary);
      const problem = runVerdict(passed, failed, grep);
      if (problem === undefined) resolvePromise();
      else reject(failed > 0 ? new TestsFailed(problem) : new Error(problem));
    });
    const counted = countRun(runner);
    // The spec reporter prints stacks at the end, so rewriting them on 'fail' is in time.
    runner.on('fail', (_test, error: unknown) => {
      if (error instanceof Error && error.stack) error.stack = sourceMappedStack(error.stack);
    });
  });
}
