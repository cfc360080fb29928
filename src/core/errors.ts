/**
 * Errors a person can act on. `code` lets hosts decide presentation (the CLI exits 2 for
 * configuration problems, the view shows a settings button); `message` says what to do.
 */
export type KeelErrorCode =
  | 'config'
  | 'model_not_configured'
  | 'model_unknown'
  | 'api_key_missing'
  | 'session'
  | 'usage'
  /** A hook refused what it was asked about (a message). */
  | 'hook';

export class KeelError extends Error {
  readonly code: KeelErrorCode;
  constructor(code: KeelErrorCode, message: string) {
    super(message);
    this.name = 'KeelError';
    this.code = code;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : JSON.stringify(err);
}
