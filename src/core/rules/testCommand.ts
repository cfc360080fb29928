import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The command that runs a folder's tests, from the files that declare one: package.json
 * `scripts.test` (with the package manager its lockfile names), a Makefile `test` target,
 * Cargo.toml, go.mod, or pytest configuration. null when none is declared.
 */
export function detectTestCommand(folder: string): string | null {
  const pkg = readJson(join(folder, 'package.json'));
  const script = pkg && typeof pkg === 'object' ? (pkg as { scripts?: { test?: unknown } }).scripts?.test : undefined;
  // npm init writes a test script that only fails; it is not a test command.
  if (typeof script === 'string' && script.trim() !== '' && !/no test specified/.test(script)) {
    if (existsSync(join(folder, 'pnpm-lock.yaml'))) return 'pnpm test';
    if (existsSync(join(folder, 'yarn.lock'))) return 'yarn test';
    if (existsSync(join(folder, 'bun.lockb')) || existsSync(join(folder, 'bun.lock'))) return 'bun run test';
    return 'npm test';
  }
  for (const name of ['Makefile', 'makefile', 'GNUmakefile']) {
    const text = readText(join(folder, name));
    if (text !== undefined && /^test\s*:/m.test(text)) return 'make test';
  }
  if (existsSync(join(folder, 'Cargo.toml'))) return 'cargo test';
  if (existsSync(join(folder, 'go.mod'))) return 'go test ./...';
  if (existsSync(join(folder, 'pytest.ini')) || existsSync(join(folder, 'conftest.py'))) return 'pytest';
  const pyproject = readText(join(folder, 'pyproject.toml'));
  if (pyproject !== undefined && /\[tool\.pytest|pytest/.test(pyproject)) return 'pytest';
  for (const [name, section] of [['setup.cfg', '[tool:pytest]'], ['tox.ini', '[pytest]']] as const) {
    if (readText(join(folder, name))?.includes(section)) return 'pytest';
  }
  return null;
}

const TEST_RUNNERS =
  /\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b|\bmake\b[^|;&]*\btest\b|\bcargo\s+(?:test|nextest)\b|\bgo\s+test\b|\bpytest\b|\bpython3?\s+-m\s+(?:pytest|unittest)\b|\b(?:vitest|jest|mocha|tox|ctest|rspec|phpunit)\b|\bdotnet\s+test\b|\bgradlew?\s+test\b|\bmvn\b[^|;&]*\btest\b/;

/** Whether a shell command runs tests: the workspace's own test command, or a well-known test runner. */
export function runsTests(command: string, testCommand: string | null): boolean {
  if (testCommand && command.includes(testCommand)) return true;
  return TEST_RUNNERS.test(command);
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
    throw err;
  }
}

function readJson(path: string): unknown {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // A package.json that does not parse declares no test command; npm itself will say why.
    return undefined;
  }
}
