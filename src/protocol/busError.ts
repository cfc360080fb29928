/**
 * Error codes a request can fail with. The first group travels in error responses from
 * the remote side; the second is produced locally by the caller's bus or by a ReadyGate.
 * Handlers may also throw a BusError with their own code (e.g. `model_not_configured`).
 */
export type BusErrorCode =
  // from the remote side
  | 'invalid_request'
  | 'invalid_params'
  | 'unknown_method'
  | 'version_mismatch'
  | 'invalid_result'
  | 'handler_error'
  // local
  | 'aborted'
  | 'timeout'
  | 'disposed'
  | 'invalid_response'
  | 'send_failed'
  | 'not_ready'
  | 'peer_reset'
  | (string & {});

/**
 * The error every failed `request()` rejects with. Aborts use name `AbortError`, so code
 * that already checks `err.name === 'AbortError'` (fetch, AI SDK) treats them alike.
 */
export class BusError extends Error {
  readonly code: BusErrorCode;
  readonly data: unknown;

  constructor(code: BusErrorCode, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
    this.name = code === 'aborted' ? 'AbortError' : 'BusError';
  }
}

export function isBusError(err: unknown, code?: BusErrorCode): err is BusError {
  return err instanceof BusError && (code === undefined || err.code === code);
}

/** Message of any thrown value; only the message crosses the bus, never a stack. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch (stringifyError) {
    return `${String(err)} (unserialisable: ${errorMessage(stringifyError)})`;
  }
}
