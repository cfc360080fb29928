import * as vscode from 'vscode';
import webviewKeys from '../../l10n/webviewKeys.json';
import type { PageLocale } from '../protocol/locale';

/**
 * What the chat page needs to speak VS Code's display language: the language, and from the
 * bundle VS Code loaded for it only the strings the webview uses (l10n/webviewKeys.json,
 * written by `npm run l10n`). English needs none: the keys are the English text.
 */
export function webviewLocale(): PageLocale {
  return pickWebviewStrings(vscode.env.language, vscode.l10n.bundle);
}

export function pickWebviewStrings(language: string, bundle: Record<string, string> | undefined): PageLocale {
  const strings: Record<string, string> = {};
  if (bundle) {
    for (const key of webviewKeys) {
      const text = bundle[key];
      if (typeof text === 'string' && text !== key) strings[key] = text;
    }
  }
  return { language: language.toLowerCase(), strings };
}
