// Timestamps taken inside the browser, as epoch milliseconds (performance.timeOrigin +
// a high-resolution time). "Painted" is the start of the first animation frame after the
// DOM change: the frame in which the browser paints it.
import type { Frame, Page } from 'playwright-core';

declare global {
  interface Window {
    __keelBench?: { pointerDownAt?: number; firstContentAt?: number; markerAt?: number };
  }
}

/**
 * Arms the workbench page: the next pointerdown on `selector` is the start; the end is the
 * first animation frame in which the webview's shown content frame (`iframe#active-frame`,
 * which VS Code names so once it has loaded and made it visible) has what `until` asks:
 * - `content`: an element with a data-testid, i.e. the early view or the chat drawn from the
 *   host's snapshot ("Connecting…" has none);
 * - `readable`: what a person needs to start, in any extension's view: visible text
 *   (`innerText` not blank) and a visible text area to type into.
 * The webview's frames are same-origin and in the same renderer here, so the page can look
 * into them; the check runs once per frame, only between the click and the content.
 */
export async function armClickToContent(page: Page, selector: string, extensionId = 'keel-dev.keel', until: 'content' | 'readable' = 'content'): Promise<void> {
  await page.evaluate(
    ({ sel, id, readable }) => {
      const state: NonNullable<Window['__keelBench']> = {};
      window.__keelBench = state;
      const content = (): boolean => {
        const outer = document.querySelector<HTMLIFrameElement>(`iframe.webview.ready[src*="extensionId=${id}"]`);
        const doc = outer?.contentDocument?.querySelector<HTMLIFrameElement>('iframe#active-frame')?.contentDocument;
        if (!readable) return Boolean(doc?.querySelector('[data-testid]'));
        if (!doc?.body || doc.body.innerText.trim() === '') return false;
        return [...doc.body.querySelectorAll('textarea')].some((input) => input.getClientRects().length > 0);
      };
      const watch = (): void => {
        requestAnimationFrame((time) => {
          if (content()) state.firstContentAt = performance.timeOrigin + time;
          else watch();
        });
      };
      window.addEventListener(
        'pointerdown',
        (event) => {
          if (!(event.target instanceof Element) || !event.target.closest(sel)) return;
          state.pointerDownAt = performance.timeOrigin + event.timeStamp;
          watch();
        },
        { capture: true, once: true },
      );
    },
    { sel: selector, id: extensionId, readable: until === 'readable' },
  );
}

/** Records the time of the next pointerdown on `selector` in this frame or page. */
export async function recordPointerDown(target: Page | Frame, selector: string): Promise<void> {
  await target.evaluate((sel) => {
    const state = (window.__keelBench ??= {});
    state.pointerDownAt = undefined;
    window.addEventListener(
      'pointerdown',
      (event) => {
        if (event.target instanceof Element && event.target.closest(sel)) state.pointerDownAt = performance.timeOrigin + event.timeStamp;
      },
      { capture: true, once: true },
    );
  }, selector);
}

/** Records when an element matching `selector` whose text includes `text` is painted in this frame. */
export async function recordMarkerPaint(frame: Frame, selector: string, text: string): Promise<void> {
  await frame.evaluate(
    ({ sel, needle }) => {
      const state = (window.__keelBench ??= {});
      state.markerAt = undefined;
      const found = (): boolean => [...document.querySelectorAll(sel)].some((element) => element.textContent?.includes(needle));
      const observer = new MutationObserver(() => {
        if (!found()) return;
        observer.disconnect();
        requestAnimationFrame((time) => {
          state.markerAt = performance.timeOrigin + time;
        });
      });
      observer.observe(document.body, { childList: true, subtree: true });
    },
    { sel: selector, needle: text },
  );
}

type BenchKey = 'pointerDownAt' | 'firstContentAt' | 'markerAt';

/**
 * Reads a recorded time. It first waits `settleMs` without touching the page (polling from
 * here would add work to the thread being measured), then polls until it is there.
 */
export async function readTime(target: () => Promise<Page | Frame>, key: BenchKey, settleMs: number, timeoutMs = 30_000): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await (await target()).evaluate((k) => window.__keelBench?.[k], key);
    if (typeof value === 'number') return value;
    if (Date.now() > deadline) throw new Error(`${key} was not recorded within ${settleMs + timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
