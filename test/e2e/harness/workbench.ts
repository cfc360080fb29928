// Driving the VS Code workbench in the browser: open it, reload it, run palette commands.
import type { Page } from 'playwright-core';

const WORKBENCH = '.monaco-workbench';

// Opens the workbench URL (optionally for another folder) and waits until its parts are
// laid out and the extension host has been asked to start.
export async function openWorkbench(page: Page, url: string, folder?: string, timeoutMs = 60_000): Promise<void> {
  const target = new URL(url);
  if (folder) target.searchParams.set('folder', folder);
  await page.goto(target.toString(), { timeout: timeoutMs });
  await waitForWorkbench(page, timeoutMs);
}

export async function waitForWorkbench(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.locator(`${WORKBENCH} .part.activitybar`).waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator(`${WORKBENCH} .part.statusbar`).waitFor({ state: 'visible', timeout: timeoutMs });
}

// In the browser a window reload is a page reload; the workbench restores views after it.
export async function reloadWindow(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.reload({ timeout: timeoutMs });
  await waitForWorkbench(page, timeoutMs);
}

// Runs a command by its palette title (for example 'Keel: New Chat'), as a person would.
export async function runCommand(page: Page, title: string, timeoutMs = 15_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  // F1 reaches the palette from anywhere, webviews included (they forward keybindings).
  await page.keyboard.press('F1');
  await widget.waitFor({ state: 'visible', timeout: timeoutMs });
  const input = widget.locator('input');
  await input.fill(`>${title}`);
  const row = widget.locator('.monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.press('Enter');
  await widget.waitFor({ state: 'hidden', timeout: timeoutMs });
}

// Text of the notification toasts currently shown (for example an extension's info message).
export async function notificationTexts(page: Page): Promise<string[]> {
  return page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
}
