import type * as vscode from 'vscode';

/**
 * Saves a dirty document, trying again a few times: the workbench refuses a save while it is
 * still settling a file it just opened, or when a slow save participant was cut off (seen in
 * code-server right after a language extension activated). Resolves false if it never saved.
 */
export async function saveWithRetries(document: vscode.TextDocument, attempts = 10, pauseMs = 200): Promise<boolean> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (!document.isDirty || (await document.save())) return true;
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return !document.isDirty;
}
