import type Mocha from 'mocha';

/**
 * Counts the tests that really ran (passed or failed), not `suite.total()`, which includes
 * tests a grep filtered out and tests marked pending: a run where nothing ran must fail.
 */
export function countRun(runner: Mocha.Runner): { passed: () => number; failed: () => number } {
  let passed = 0;
  let failed = 0;
  runner.on('pass', () => passed++);
  // A failing hook is reported as a failure too: it stops the tests it guards from running.
  runner.on('fail', () => failed++);
  return { passed: () => passed, failed: () => failed };
}

/** The runner's verdict: undefined when the run is good, else why it is not. */
export function runVerdict(passed: number, failed: number, grep: string | undefined): string | undefined {
  if (failed > 0) return `${failed} of ${passed + failed} integration tests failed`;
  if (passed === 0) return grep ? `no integration test ran: none matches the grep /${grep}/` : 'no integration test ran';
  return undefined;
}
