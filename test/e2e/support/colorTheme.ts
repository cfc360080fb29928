// The colour theme of the workbench, switched as a person's settings switch it, and the kinds
// the webview is told about (its body's class), for the browser tests that check every theme.
import type { Frame } from 'playwright-core';
import { setWorkspaceSetting } from './workspaceSettings.ts';

const TIMEOUT = 30_000;

/** workbench.colorTheme values, and the kind of theme the webview is told about. */
export const THEMES = [
  ['Default Light Modern', 'vscode-light'],
  ['Default Dark Modern', 'vscode-dark'],
  ['Default High Contrast', 'vscode-high-contrast'],
  ['Default High Contrast Light', 'vscode-high-contrast-light'],
] as const;

/** Switches the colour theme in the workspace settings and waits until the webview has it. */
export async function useTheme(workspace: string, frame: Frame, theme: string, kind: string): Promise<void> {
  setWorkspaceSetting(workspace, 'workbench.colorTheme', theme);
  // High contrast light also carries vscode-high-contrast.
  await frame.waitForFunction(
    (wanted) => {
      const classes = document.body.classList;
      const now = classes.contains('vscode-high-contrast-light') ? 'vscode-high-contrast-light' : classes.contains('vscode-high-contrast') ? 'vscode-high-contrast' : classes.contains('vscode-dark') ? 'vscode-dark' : 'vscode-light';
      return now === wanted;
    },
    kind,
    { timeout: TIMEOUT },
  );
}
