// Runs mocha test files in this process and counts what really ran. runner.total counts
// tests that were then skipped (it.skip, this.skip(), a failed before hook), and a run in
// which nothing passed proves nothing: the verdict fails it.
import Mocha from 'mocha';

/**
 * @param {string[]} files
 * @param {{ grep?: string, timeoutMs: number }} options
 * @returns {Promise<{ failures: number, passed: number, skipped: number }>}
 */
export function runMochaFiles(files, { grep, timeoutMs }) {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: timeoutMs, grep, color: Boolean(process.stdout.isTTY) });
  Mocha.interfaces.tdd(mocha.suite);
  for (const file of files) mocha.addFile(file);
  return new Promise((resolvePromise) => {
    let passed = 0;
    let skipped = 0;
    const runner = mocha.run((failures) => resolvePromise({ failures, passed, skipped }));
    runner.on('pass', () => { passed += 1; });
    runner.on('pending', () => { skipped += 1; });
  });
}

/**
 * The exit code of a run, and what to say when it fails for want of tests.
 * @param {{ failures: number, passed: number, skipped: number }} counts
 * @returns {{ code: 0 | 1, problem?: string }}
 */
export function mochaVerdict({ failures, passed, skipped }) {
  if (failures > 0) return { code: 1 };
  if (passed > 0) return { code: 0 };
  return { code: 1, problem: skipped > 0 ? `all ${skipped} test(s) were skipped` : 'no test ran' };
}
