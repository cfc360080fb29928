import * as l10n from '@vscode/l10n';
import { errorMessage, isBusError } from '../../src/protocol/busError';
import { uiErrorCodeSchema } from '../../src/protocol/sessionState';
import type { UiError } from '../../src/protocol/sessionState';

/** Retrying may help with these; the rest need the person to change something first. */
const RETRYABLE = new Set(['model_unreachable', 'rate_limited', 'timeout', 'send_failed', 'peer_reset', 'not_ready']);

/**
 * A failed request as the person reads it: what was being done and why it failed.
 * Handler errors keep their own code when it is one the UI knows (e.g. model_not_configured).
 */
export function requestErrorToUi(what: string, err: unknown): UiError {
  const code = isBusError(err) ? err.code : 'internal';
  const known = uiErrorCodeSchema.safeParse(code);
  return {
    code: known.success ? known.data : 'internal',
    message: l10n.t('{0} failed: {1}', what, errorMessage(err)),
    retryable: RETRYABLE.has(code),
  };
}
