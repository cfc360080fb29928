// What a person meets the first time they open Keel: a fresh window (a new browser profile, so
// no state the view saved before) with Keel not yet activated, a click on Keel's icon, and the
// first frame with readable text and a composer. A plain webview view (a few lines of static
// HTML, test/fixtures/extensions/keel-plain-view), measured the same way in the same server,
// is the scale: VS Code's own cost of showing a webview view in a new window.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitForWorkbench } from '../e2e/harness/workbench.ts';
import type { Bench, BenchSuite } from './benchTypes';
import { sharedLab } from './vscode/codeServerLab.ts';
import type { Lab } from './vscode/codeServerLab.ts';
import { currentExtensionHost, waitForCurrentHostIdle } from './vscode/extensionHostProcess.ts';
import { armClickToContent, readTime } from './vscode/pageTiming.ts';
import { repoRoot, rig } from './vscode/rigScripts.ts';
import { KEEL_ACTIVITY_ITEM } from './vscode/workbenchActions.ts';

const PLAIN = {
  item: '.part.activitybar a.action-label[class*="activity-workbench-view-extension-plainView-"]',
  extensionId: 'keel-test.keel-plain-view',
};
const KEEL = { item: KEEL_ACTIVITY_ITEM, extensionId: 'keel-dev.keel' };
const RUNS = 5;
const WARMUP = 1;
/** Keel's target: this, or 1.5 times the plain view measured in the same server. */
const TARGET_MS = 400;

// No model configured: a person who has just installed Keel.
const lab = sharedLab({ linkExtensions: [join(repoRoot, 'test', 'fixtures', 'extensions', 'keel-plain-view')] });

/** The plain view's measurements, warm-up first; Keel's row is judged against their median. */
const plainSamples: number[] = [];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A new browser profile on the lab's server (a new window and extension host, nothing saved),
 * once the window's start-up work is done: the click on `view.item`, to the first frame with
 * readable text and a text area in that view; then a key typed into the text area must show
 * there (the early composer or, once it took over, the chat's own).
 */
async function firstSight(server: Lab['server'], view: { item: string; extensionId: string }): Promise<number> {
  const previousHost = await currentExtensionHost(server.pid, undefined);
  const browser = await (await rig.chromium()).launchChromium();
  try {
    const page: Page = browser.page;
    await page.goto(server.url, { timeout: 60_000 });
    await waitForWorkbench(page);
    await page.locator(view.item).waitFor({ state: 'visible', timeout: 30_000 });
    await waitForCurrentHostIdle(server.pid, previousHost);
    await page.waitForTimeout(1_000);

    await armClickToContent(page, view.item, view.extensionId, 'readable');
    await page.locator(view.item).click();
    const clickedAt = await readTime(async () => page, 'pointerDownAt', 0);
    const shownAt = await readTime(async () => page, 'firstContentAt', 1_500);

    const input = page.frameLocator(`iframe.webview[src*="extensionId=${view.extensionId}"]`).frameLocator('iframe#active-frame').locator('textarea:visible').first();
    await input.click({ timeout: 30_000 });
    await page.keyboard.type('k');
    const deadline = Date.now() + 30_000;
    while (!(await input.inputValue()).includes('k')) {
      if (Date.now() > deadline) throw new Error(`the text area of ${view.extensionId} did not take a typed key`);
      await page.waitForTimeout(100);
    }
    return shownAt - clickedAt;
  } finally {
    await browser.close();
  }
}

const plainView: Bench<Lab> = {
  name: '(scale) fresh window: click a plain webview view → readable text and a text area',
  target: 'for scale',
  limit: Number.POSITIVE_INFINITY,
  runs: RUNS,
  warmup: WARMUP,
  setup: lab.get,
  async run({ server }) {
    const ms = await firstSight(server, PLAIN);
    plainSamples.push(ms);
    return ms;
  },
};

/** The plain view's median once its row ran (its warm-up left out). */
function plainMedian(): number | undefined {
  const measured = plainSamples.slice(WARMUP);
  return measured.length > 0 ? median(measured) : undefined;
}

const keelView: Bench<Lab> = {
  name: 'first content in a fresh window: click Keel icon → readable text and a composer that takes keys',
  get target() {
    const plain = plainMedian();
    return plain === undefined ? `< ${TARGET_MS} ms` : `< ${TARGET_MS} ms or < 1.5× plain (${Math.round(plain * 1.5)} ms)`;
  },
  get limit() {
    const plain = plainMedian();
    return plain === undefined ? TARGET_MS : Math.max(TARGET_MS, plain * 1.5);
  },
  runs: RUNS,
  warmup: WARMUP,
  setup: lab.get,
  run: ({ server }) => firstSight(server, KEEL),
  teardown: lab.close,
};

export const suite: BenchSuite = {
  name: 'vscode first sight',
  benches: [plainView, keelView],
};
