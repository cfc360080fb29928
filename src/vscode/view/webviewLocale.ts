import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { PageLocale } from '../../protocol/locale';
import { pickWebviewStrings } from './webviewStrings';

let keys: readonly string[] | undefined;

/**
 * What the chat page needs to speak VS Code's display language, from the bundle VS Code loaded
 * for it. The list of the page's keys is read from the extension's l10n folder when a page is
 * first served in another language than English (not bundled: the activation shell stays
 * small). Without that list the page is English, and the log says why.
 */
export function webviewLocale(extensionUri: vscode.Uri, log: (message: string) => void): PageLocale {
  const language = vscode.env.language.toLowerCase();
  const bundle = vscode.l10n.bundle;
  if (!bundle) return { language, strings: {} };
  try {
    keys ??= readKeys(vscode.Uri.joinPath(extensionUri, 'l10n', 'webviewKeys.json').fsPath);
  } catch (err) {
    log(`chat view: its strings for ${language} are not available, so it shows English: ${errorMessage(err)}`);
    return { language: 'en', strings: {} };
  }
  return pickWebviewStrings(language, bundle, keys);
}

function readKeys(path: string): string[] {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(parsed) || !parsed.every((k) => typeof k === 'string')) throw new Error(`${path} is not a list of strings`);
  return parsed;
}
