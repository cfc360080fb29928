// People read these (the chat, the CLI's errors): they follow the display language.
import * as l10n from '@vscode/l10n';
import { KeelError } from '../errors';

export class SessionNotFoundError extends KeelError {
  constructor(
    readonly sessionId: string,
    readonly workspaceRoot: string,
  ) {
    super('session', l10n.t('No session "{0}" in workspace {1}.', sessionId, workspaceRoot));
    this.name = 'SessionNotFoundError';
  }
}

/** Appending to a session opened read-only, or one another process is writing. */
export class SessionReadOnlyError extends KeelError {
  constructor(
    readonly sessionId: string,
    readonly reason: string,
  ) {
    super('session', l10n.t('Session "{0}" is read-only: {1}.', sessionId, reason));
    this.name = 'SessionReadOnlyError';
  }
}

/** Deleting a session that a live process still has open for writing. */
export class SessionLockedError extends KeelError {
  constructor(
    readonly sessionId: string,
    readonly reason: string,
  ) {
    super('session', l10n.t('Session "{0}" cannot be deleted: {1}. Close it first.', sessionId, reason));
    this.name = 'SessionLockedError';
  }
}
