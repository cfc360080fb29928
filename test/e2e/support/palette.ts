// The command palette as a person types into it: what it lists for a query, and which row it
// would run on Enter (the focused one).
import type { Page } from 'playwright-core';

const TIMEOUT = 15_000;

export interface PaletteResult {
  /** Labels of the rows shown, top first. */
  labels: string[];
  /** The label of the row Enter would run. */
  selected: string;
}

/**
 * Opens the palette, types `>query` and waits until `waitFor` is among the rows (or, without
 * it, until any row shows), then reads them and closes the palette.
 */
export async function paletteFor(page: Page, query: string, waitFor?: string): Promise<PaletteResult> {
  const widget = page.locator('.quick-input-widget');
  await page.keyboard.press('F1');
  await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
  await widget.locator('input').fill(`>${query}`);
  const rows = widget.locator('.monaco-list-row');
  if (waitFor) await rows.filter({ hasText: waitFor }).first().waitFor({ timeout: TIMEOUT });
  else await rows.first().waitFor({ timeout: TIMEOUT });
  const labelOf = (row: ReturnType<typeof rows.first>) => row.locator('.label-name').first().innerText();
  const labels: string[] = [];
  for (const row of await rows.all()) labels.push((await labelOf(row)).trim());
  const selected = (await labelOf(widget.locator('.monaco-list-row.focused').first())).trim();
  await page.keyboard.press('Escape');
  await widget.waitFor({ state: 'hidden', timeout: TIMEOUT });
  return { labels, selected };
}

/** Forgets which commands were run recently, so the palette orders by its own rules again. */
export async function clearCommandHistory(page: Page): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await page.keyboard.press('F1');
  await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
  await widget.locator('input').fill('>workbench.action.clearCommandHistory');
  await widget.locator('.monaco-list-row').first().waitFor({ timeout: TIMEOUT });
  await widget.locator('input').press('Enter');
  // VS Code asks before clearing; the dialog's primary button confirms.
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: TIMEOUT });
  await dialog.locator('.dialog-buttons a.monaco-button').first().click();
  await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT });
}

/** "Welcome: Open Walkthrough..." and the walkthrough titled `title` from its list. */
export async function openWalkthrough(page: Page, title: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await page.keyboard.press('F1');
  await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
  await widget.locator('input').fill('>Welcome: Open Walkthrough');
  await widget.locator('.monaco-list-row', { hasText: 'Welcome: Open Walkthrough' }).first().click();
  // The same widget comes back as the list of walkthroughs.
  await widget.locator('.monaco-list-row', { hasText: title }).first().click({ timeout: TIMEOUT });
  await widget.waitFor({ state: 'hidden', timeout: TIMEOUT });
}
