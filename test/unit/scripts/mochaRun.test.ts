// The e2e runner's verdict from real mocha runs: a run whose every test was skipped, or
// that ran none, fails like a run with a failure; one real pass is needed to succeed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mochaVerdict, runMochaFiles } from '../../../scripts/lib/mochaRun.mjs';

const dir = mkdtempSync(join(tmpdir(), 'keel-mocharun-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function suiteFile(name: string, body: string): string {
  const file = join(dir, `${name}.cjs`);
  writeFileSync(file, `describe('${name}', function () {\n${body}\n});\n`);
  return file;
}

async function verdictOf(body: string, grep?: string) {
  const counts = await runMochaFiles([suiteFile(`s${Math.random().toString(36).slice(2)}`, body)], { timeoutMs: 5_000, grep });
  return { counts, verdict: mochaVerdict(counts) };
}

describe('the e2e runner verdict', () => {
  it('fails a run in which every test was skipped, by it.skip or this.skip()', async () => {
    const { counts, verdict } = await verdictOf(`it.skip('a', function () {});\nit('b', function () { this.skip(); });`);
    expect(counts).toEqual({ failures: 0, passed: 0, skipped: 2 });
    expect(verdict).toEqual({ code: 1, problem: 'all 2 test(s) were skipped' });
  });

  it('fails a run whose before hook skipped the suite', async () => {
    const { counts, verdict } = await verdictOf(`before(function () { this.skip(); });\nit('a', function () {});\nit('b', function () {});`);
    expect(counts.passed).toBe(0);
    expect(verdict.code).toBe(1);
  });

  it('fails a run where grep left no test', async () => {
    const { verdict } = await verdictOf(`it('a', function () {});`, 'matches-nothing-here');
    expect(verdict).toEqual({ code: 1, problem: 'no test ran' });
  });

  it('passes a run with one passing test beside skipped ones, and fails one with a failure', async () => {
    expect((await verdictOf(`it('a', function () {});\nit.skip('b', function () {});`)).verdict).toEqual({ code: 0 });
    const failing = await verdictOf(`it('a', function () {});\nit('b', function () { throw new Error('no'); });`);
    expect(failing.counts).toEqual({ failures: 1, passed: 1, skipped: 0 });
    expect(failing.verdict.code).toBe(1);
  });
});
