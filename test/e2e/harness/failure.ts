/// <reference types="mocha" />
// Evidence when a browser test fails: a screenshot named after the test.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export function artifactName(title: string): string {
  return title.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120) || 'test';
}

// Call from afterEach with this.currentTest; returns the screenshot's path when one was taken.
export async function screenshotOnFailure(test: Mocha.Test | undefined, page: Page | undefined, resultsDir: string): Promise<string | undefined> {
  if (!test || test.state !== 'failed' || !page || page.isClosed()) return undefined;
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${artifactName(test.fullTitle())}.png`);
  await page.screenshot({ path: file, fullPage: true, timeout: 10_000 });
  console.log(`    screenshot of the failure: ${file}`);
  return file;
}
