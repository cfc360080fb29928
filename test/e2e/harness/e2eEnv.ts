// What scripts/runE2e.mjs tells the browser tests, through environment variables.
export interface E2eEnv {
  // Workbench URL of the running code-server, already pointing at the workspace folder.
  url: string;
  // Absolute path of the workspace folder the server opened (a fresh copy per run).
  workspace: string;
  // Folder for screenshots and other artifacts of failures.
  resultsDir: string;
  // publisher.name of the extension under test.
  extensionId: string;
}

export const E2E_ENV_VARS = {
  url: 'KEEL_E2E_URL',
  workspace: 'KEEL_E2E_WORKSPACE',
  resultsDir: 'KEEL_E2E_RESULTS',
  extensionId: 'KEEL_E2E_EXTENSION_ID',
} as const;

export function e2eEnv(): E2eEnv {
  const url = process.env[E2E_ENV_VARS.url];
  const workspace = process.env[E2E_ENV_VARS.workspace];
  if (!url || !workspace) {
    throw new Error(`${E2E_ENV_VARS.url} and ${E2E_ENV_VARS.workspace} are not set: run the browser tests through scripts/runE2e.mjs (npm run test:e2e)`);
  }
  return {
    url,
    workspace,
    resultsDir: process.env[E2E_ENV_VARS.resultsDir] || 'test-results',
    extensionId: process.env[E2E_ENV_VARS.extensionId] || 'keel-dev.keel',
  };
}
