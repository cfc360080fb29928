// Environment variables the rig passes to the test runner inside the extension host
// (through the workbench's `extensionEnvironment`, or test-electron's extensionTestsEnv).

// Absolute path of a file that receives the mocha reporter's output as it is written.
export const REPORT_FILE_ENV = 'KEEL_TEST_REPORT_FILE';
// Absolute path of the folder holding the compiled suites (default: ../suite next to the runner).
export const SUITES_DIR_ENV = 'KEEL_TEST_SUITES_DIR';

export function reportFileFromEnv(): string | undefined {
  return process.env[REPORT_FILE_ENV] || undefined;
}

export function suitesDirFromEnv(): string | undefined {
  return process.env[SUITES_DIR_ENV] || undefined;
}
