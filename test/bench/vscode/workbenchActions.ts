// Workbench steps the benches repeat between measurements, and VS Code's own record of an
// extension's activation time (Developer: Show Running Extensions).
import type { Page } from 'playwright-core';
import { keelFrame, openKeelView } from '../../e2e/harness/keelView.ts';
import { reloadWindow, runCommand } from '../../e2e/harness/workbench.ts';

const KEEL_CONTAINER = '.part.sidebar [id="workbench.view.extension.keel"]';
export const KEEL_ACTIVITY_ITEM = '.part.activitybar a.action-label[class*="activity-workbench-view-extension-keel-"]';

/** A new window (and extension host) whose sidebar shows the Explorer, not Keel. */
export async function reloadWithoutKeel(page: Page, opts: { keelInstalled?: boolean } = {}): Promise<void> {
  if (await page.locator(KEEL_CONTAINER).isVisible()) await runCommand(page, 'View: Show Explorer');
  await runCommand(page, 'View: Close All Editors');
  await reloadWindow(page);
  // The Explorer comes back with the window; Keel's view must not.
  await page.locator('.part.sidebar [id="workbench.view.explorer"]').waitFor({ state: 'visible', timeout: 30_000 });
  // Keel's activity item appears once the extensions are registered: only then does the
  // command palette list Keel's commands.
  if (opts.keelInstalled !== false) await page.locator(KEEL_ACTIVITY_ITEM).waitFor({ state: 'visible', timeout: 30_000 });
}

/** Opens Keel's view and waits until the chat drew the host's snapshot (runtime loaded, core built). */
export async function showKeel(page: Page): Promise<void> {
  await openKeelView(page);
  await keelFrame(page).getByTestId('composer-input').waitFor({ timeout: 30_000 });
}

/**
 * VS Code's own measurement: the Running Extensions editor shows, per extension,
 * "Activation: N ms" = loading its code + calling activate() (codeLoadingTime + activateCallTime).
 */
export async function activationTimeMs(page: Page, extensionName = 'Keel'): Promise<number> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const editor = page.locator('.runtime-extensions-editor');
  await editor.waitFor({ state: 'visible', timeout: 30_000 });
  const row = editor.locator('.monaco-list-row', { has: page.locator('.name', { hasText: new RegExp(`^${extensionName}$`) }) });
  await row.first().waitFor({ timeout: 30_000 });
  const text = await row.first().innerText();
  const match = /Activation: (\d+)ms/.exec(text);
  if (!match) throw new Error(`no activation time in the Running Extensions row of ${extensionName}: ${JSON.stringify(text)}`);
  await runCommand(page, 'View: Close All Editors');
  return Number(match[1]);
}
