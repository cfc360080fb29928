import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';

/**
 * What went wrong with a VS Code language model, in words that say what to do. The API
 * reports consent, blocking and missing models as LanguageModelError codes; quota and rate
 * limits come as the providing extension's own message.
 */
export function lmErrorMessage(err: unknown, chat: Pick<vscode.LanguageModelChat, 'name' | 'vendor'>): string {
  const model = vscode.l10n.t('{0} (from {1})', chat.name, chat.vendor);
  const detail = errorMessage(err);
  if (err instanceof vscode.LanguageModelError) {
    switch (err.code) {
      case 'NoPermissions':
        return vscode.l10n.t('Keel may not use {0} yet: allow Keel to use language models when VS Code asks (or under "Manage Language Model Access" in the Accounts menu), then send again. {1}', model, detail);
      case 'Blocked':
        return vscode.l10n.t('{0} refused the request because it is blocked, for example by a rate or usage limit of your plan; wait or choose another model. {1}', model, detail);
      case 'NotFound':
        return vscode.l10n.t('{0} is no longer available (its extension was disabled or signed out); choose another model in Keel. {1}', model, detail);
    }
  }
  if (/quota|rate.?limit|too many requests|\b429\b/i.test(detail)) {
    return vscode.l10n.t('{0} is over its quota or rate limit; wait a moment or choose another model. {1}', model, detail);
  }
  return vscode.l10n.t('{0} failed: {1}', model, detail);
}
