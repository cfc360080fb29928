// The primary side bar's width, set as a person sets it: by dragging the sash on its edge,
// until Keel's webview is as wide as asked.
import type { Frame, Page } from 'playwright-core';

async function webviewWidth(frame: Frame): Promise<number> {
  return frame.evaluate(() => window.innerWidth);
}

/** Drags the side bar's sash until the webview's content is `width` px wide (within 2 px). */
export async function setSidebarWidth(page: Page, frame: Frame, width: number): Promise<void> {
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const now = await webviewWidth(frame);
    if (Math.abs(now - width) <= 2) return;
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    if (!sidebar) throw new Error('the side bar is not showing');
    const edge = sidebar.x + sidebar.width;
    const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((elements) =>
      elements.map((element) => {
        const rect = element.getBoundingClientRect();
        return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2, height: rect.height };
      }),
    );
    const sash = sashes.filter((s) => s.height > 100).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
    if (!sash || Math.abs(sash.x - edge) > 8) throw new Error(`no sash on the side bar's edge (x ${edge})`);
    await page.mouse.move(sash.x, sash.y);
    await page.mouse.down();
    await page.mouse.move(sash.x + (width - now) / 2, sash.y, { steps: 4 });
    await page.mouse.move(sash.x + (width - now), sash.y, { steps: 4 });
    await page.mouse.up();
    // The webview follows the side bar on the next layout.
    await frame.waitForFunction((before) => window.innerWidth !== before, now, { timeout: 5_000 }).catch(() => undefined);
  }
  const reached = await webviewWidth(frame);
  if (Math.abs(reached - width) > 2) throw new Error(`the webview is ${reached} px wide, not ${width}`);
}
