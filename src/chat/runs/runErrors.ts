import * as l10n from '@vscode/l10n';
import { KeelError } from '../../core/errors';
import type { UiError, UiErrorCode } from '../../protocol/sessionState';

/** Key-shaped tokens (OpenAI and most compatible servers use these prefixes). */
const KEY_LIKE = /\b(?:sk|rk|pk|gsk|xai|key)-[A-Za-z0-9_-]{12,}\b/g;

/** Removes anything that looks like an API key, and the given secrets, from text shown or logged. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  return out.replace(KEY_LIKE, '[redacted]');
}

/** A model request that failed after the loop's own retries, as the view explains it. */
export function runFailure(error: { message: string; statusCode?: number; code?: 'context_too_long' }, secrets: readonly string[] = []): UiError {
  const detail = redactSecrets(error.message, secrets);
  const status = error.statusCode;
  if (error.code === 'context_too_long') {
    // The loop already left out the oldest part of the conversation and tried again.
    return uiError(
      'context_too_long',
      l10n.t("The conversation no longer fits this model's context window, even with its oldest part left out: {0} Nothing is lost (the whole conversation stays in its log). Start a new chat, or choose a model with a larger context window.", detail),
      false,
    );
  }
  if (status === 401 || status === 403) {
    return uiError('auth_failed', l10n.t('The model server refused the API key ({0}): {1} Set it again with "Keel: Set API Key".', status, detail), false);
  }
  if (status === 429) return uiError('rate_limited', l10n.t('The model server is rate limiting requests: {0} Send again in a moment.', detail), true);
  if ((status === 400 || status === 413) && /context|too long|too many tokens|maximum.*tokens|token limit/i.test(detail)) {
    return uiError('context_too_long', l10n.t('The conversation is too long for this model: {0} Start a new chat or use a model with a larger context.', detail), false);
  }
  if (status === undefined || status >= 500 || status === 408) {
    return uiError('model_unreachable', l10n.t('The model could not be reached: {0} Check keel.baseUrl and that the server is running, then send again.', detail), true);
  }
  if (status === 404) {
    return uiError('invalid_config', l10n.t('The model server does not know this model or path (404): {0} Check keel.model and keel.baseUrl.', detail), false);
  }
  return uiError('internal', l10n.t('The model request failed ({0}): {1}', status, detail), false);
}

/** An exception from building the core or starting a run. */
export function thrownError(err: unknown, secrets: readonly string[] = []): UiError {
  const message = redactSecrets(err instanceof Error ? err.message : String(err), secrets);
  if (err instanceof KeelError) {
    switch (err.code) {
      case 'model_not_configured':
      case 'api_key_missing':
        return uiError('model_not_configured', message, false);
      case 'model_unknown':
      case 'config':
      case 'usage':
        return uiError('invalid_config', message, false);
      case 'session':
        return uiError('internal', message, false);
    }
  }
  return uiError('internal', l10n.t('Keel hit an unexpected error: {0}', message), true);
}

function uiError(code: UiErrorCode, message: string, retryable: boolean): UiError {
  return { code, message, retryable };
}
