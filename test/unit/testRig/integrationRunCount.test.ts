import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Mocha from 'mocha';
import { describe, expect, it } from 'vitest';
import { countRun, runVerdict } from '../../integration/runner/runCount';

const repo = join(__dirname, '..', '..', '..');

/** A real mocha run of two tests (one pending), filtered by `grep`; what the runner's count sees. */
function runTwo(grep?: string): Promise<{ passed: number; failed: number; total: number }> {
  const mocha = new Mocha({ reporter: Mocha.reporters.Base, ...(grep ? { grep } : {}) });
  const suite = Mocha.Suite.create(mocha.suite, 'chat');
  suite.addTest(new Mocha.Test('sends a message', () => undefined));
  suite.addTest(new Mocha.Test('cancels a run', () => undefined));
  suite.addTest(new Mocha.Test('a pending one'));
  return new Promise((resolve) => {
    const runner = mocha.run(() => resolve({ passed: counted.passed(), failed: counted.failed(), total: mocha.suite.total() }));
    const counted = countRun(runner);
  });
}

describe('the integration runner counts only tests that ran', () => {
  it('a grep that matches nothing: suite.total() still says 3, the count says 0 and the run fails', async () => {
    const run = await runTwo('no such test');
    expect(run.total).toBe(3);
    expect(run.passed + run.failed).toBe(0);
    expect(runVerdict(run.passed, run.failed, 'no such test')).toBe('no integration test ran: none matches the grep /no such test/');
  });

  it('a grep that matches one test counts that one, and the run passes', async () => {
    const run = await runTwo('cancels');
    expect(run).toMatchObject({ passed: 1, failed: 0 });
    expect(runVerdict(run.passed, run.failed, 'cancels')).toBeUndefined();
  });

  it('failures fail the run', () => {
    expect(runVerdict(3, 1, undefined)).toBe('1 of 4 integration tests failed');
  });
});

/** Runs a function of scripts/runIntegration.mjs in a fresh node with `env`, returning its JSON result. */
function inScript(expression: string, env: Record<string, string>): unknown {
  const code = `import(${JSON.stringify(join(repo, 'scripts', 'runIntegration.mjs'))}).then((m) => console.log(JSON.stringify(${expression})))`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

describe('scripts/runIntegration.mjs', () => {
  it('passes the caller\'s KEEL_* variables to the tests, but not a KEEL_TEST_GREP that would narrow the run', () => {
    const env = inScript('m.keelEnvFromProcess()', { KEEL_TEST_GREP: 'chat', KEEL_SCRIPTED_URL: 'http://127.0.0.1:1' });
    expect(env).toEqual({ KEEL_SCRIPTED_URL: 'http://127.0.0.1:1' });
  });

  it('fails a run whose report says no test ran, or that has no summary, even when the workbench exit code was 0', () => {
    const outcomes = inScript(
      `[m.reportOutcome('integration: 0 passed, 0 failed\\n', 0), m.reportOutcome('', 0), m.reportOutcome('  ✔ sends\\nintegration: 12 passed, 0 failed\\n', 0)]`,
      {},
    );
    expect(outcomes).toEqual([{ code: 1, problem: 'no integration test ran' }, { code: 1, problem: 'the runner wrote no summary' }, { code: 0 }]);
  });
});
