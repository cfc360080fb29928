/// <reference types="mocha" />
// One call inside a mocha describe() gives its tests a browser on the workbench:
// Chromium starts before the first test, a failing test leaves a screenshot, and
// everything is closed after the last test.
import type { Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import type { LaunchedChromium } from './browser.ts';
import { e2eEnv } from './e2eEnv.ts';
import type { E2eEnv } from './e2eEnv.ts';
import { screenshotOnFailure } from './failure.ts';
import { openWorkbench } from './workbench.ts';

export interface WorkbenchSession {
  readonly page: Page;
  readonly env: E2eEnv;
}

export interface WorkbenchOptions {
  /** Open the workbench before the first test (default true). */
  open?: boolean;
  startTimeoutMs?: number;
  /** VS Code's display language for this browser (`zh-cn`): the `vscode.nls.locale` cookie, set before the workbench opens. */
  locale?: string;
}

export function useWorkbench(options: WorkbenchOptions = {}): WorkbenchSession {
  let browser: LaunchedChromium | undefined;
  const env = e2eEnv();
  const session: WorkbenchSession = {
    env,
    get page(): Page {
      if (!browser) throw new Error('the browser is not started: use session.page inside tests or hooks');
      return browser.page;
    },
  };

  before(async function () {
    this.timeout(options.startTimeoutMs ?? 120_000);
    browser = await launchBrowser();
    if (options.locale) await browser.page.context().addCookies([{ name: 'vscode.nls.locale', value: options.locale, url: env.url }]);
    if (options.open ?? true) await openWorkbench(browser.page, env.url);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, browser?.page, env.resultsDir);
  });

  after(async function () {
    this.timeout(30_000);
    await browser?.close();
    browser = undefined;
  });

  return session;
}
