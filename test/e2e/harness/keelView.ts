// Keel's sidebar view: open it from the activity bar and reach into its webview.
import type { Frame, FrameLocator, Page } from 'playwright-core';

export interface KeelViewOptions {
  // publisher.name of the extension that owns the webview.
  extensionId?: string;
  // id of the contributed view container (package.json contributes.viewsContainers).
  containerId?: string;
  // title of its activity-bar item.
  containerTitle?: string;
  timeoutMs?: number;
}

const defaults = { extensionId: 'keel-dev.keel', containerId: 'keel', containerTitle: 'Keel', timeoutMs: 30_000 };

function containerLocator(page: Page, containerId: string) {
  return page.locator(`.part.sidebar [id="workbench.view.extension.${containerId}"]`);
}

// The item's link carries the container id in a class and its title as aria-label (with
// the keybinding in parentheses when it has one); either identifies it.
function activityItem(page: Page, containerId: string, containerTitle: string) {
  const byClass = `.part.activitybar a.action-label[class*="activity-workbench-view-extension-${containerId}-"]`;
  const byLabel = `.part.activitybar a.action-label[aria-label="${containerTitle}"], .part.activitybar a.action-label[aria-label^="${containerTitle} ("]`;
  return page.locator(`${byClass}, ${byLabel}`).first();
}

// After a reload VS Code restores the sidebar a moment later, and a click on the activity
// item in that moment closes it again: click only while the view is not showing, then
// require it to stay open for a while before returning.
export async function openKeelView(page: Page, options: KeelViewOptions = {}): Promise<void> {
  const { containerId, containerTitle, timeoutMs } = { ...defaults, ...options };
  const container = containerLocator(page, containerId);
  const item = activityItem(page, containerId, containerTitle);
  const deadline = Date.now() + timeoutMs;
  let stableSince = 0;
  while (Date.now() < deadline) {
    if (await container.isVisible()) {
      if (!stableSince) stableSince = Date.now();
      if (Date.now() - stableSince >= 1_500) return;
    } else {
      stableSince = 0;
      if (await item.isVisible()) await item.click();
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the "${containerTitle}" view (workbench.view.extension.${containerId}) did not stay open within ${timeoutMs} ms`);
}

// A webview is two nested iframes: the outer one is selected by the owning extension's id
// (a bare iframe.webview could be another extension's), the content is its active-frame.
export function keelFrame(page: Page, extensionId = defaults.extensionId): FrameLocator {
  return page.frameLocator(outerSelector(extensionId)).frameLocator('iframe#active-frame');
}

// The same content frame as a Frame, for evaluate() and friends.
export async function keelContentFrame(page: Page, extensionId = defaults.extensionId, timeoutMs = 30_000): Promise<Frame> {
  const inner = page.frameLocator(outerSelector(extensionId)).locator('iframe#active-frame');
  await inner.waitFor({ state: 'attached', timeout: timeoutMs });
  const handle = await inner.elementHandle({ timeout: timeoutMs });
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error(`webview of ${extensionId} has no content frame`);
  return frame;
}

function outerSelector(extensionId: string): string {
  return `iframe.webview.ready[src*="extensionId=${extensionId}"]`;
}
