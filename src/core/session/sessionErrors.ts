import { KeelError } from '../errors';

export class SessionNotFoundError extends KeelError {
  constructor(
    readonly sessionId: string,
    readonly workspaceRoot: string,
  ) {
    super('session', `No session "${sessionId}" in workspace ${workspaceRoot}.`);
    this.name = 'SessionNotFoundError';
  }
}

/** Appending to a session opened read-only, or one another process is writing. */
export class SessionReadOnlyError extends KeelError {
  constructor(
    readonly sessionId: string,
    readonly reason: string,
  ) {
    super('session', `Session "${sessionId}" is read-only: ${reason}.`);
    this.name = 'SessionReadOnlyError';
  }
}

/** Deleting a session that a live process still has open for writing. */
export class SessionLockedError extends KeelError {
  constructor(
    readonly sessionId: string,
    readonly reason: string,
  ) {
    super('session', `Session "${sessionId}" cannot be deleted: ${reason}. Close it first.`);
    this.name = 'SessionLockedError';
  }
}
