import * as vscode from 'vscode';
import type { PageLocale } from '../protocol/locale';
import { pickWebviewStrings } from './webviewStrings';

/** What the chat page needs to speak VS Code's display language, from the bundle VS Code loaded for it. */
export function webviewLocale(): PageLocale {
  return pickWebviewStrings(vscode.env.language, vscode.l10n.bundle);
}
