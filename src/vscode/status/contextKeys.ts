import * as vscode from 'vscode';
import type { PlanInfo } from '../../protocol/planState';
import type { LogFn } from '../../protocol/log';

/**
 * The states package.json's `when` clauses read, so the command palette offers a command only
 * when it can do something: Stop while a run goes, Accept/Reject while a change waits,
 * Execute Plan while a plan waits for the person.
 */
export const CONTEXT_KEYS = {
  /** A run is going in the chat (Stop). */
  running: 'keel.running',
  /** At least one proposed file change waits for a decision (Accept/Reject Change, … All). */
  hasPendingChange: 'keel.hasPendingChange',
  /** The conversation in view has a plan (Open Plan). */
  hasPlan: 'keel.hasPlan',
  /** Its newest plan waits for the person: proposed or edited, not yet executed or set aside (Execute Plan). */
  planPending: 'keel.planPending',
  /** The conversation in view works in a git worktree (Review Worktree Changes, Keep Branch, Discard). */
  inWorktree: 'keel.inWorktree',
} as const;

type ContextKey = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];

export class KeelContextKeys {
  private readonly current = new Map<ContextKey, boolean>();

  constructor(private readonly log: LogFn) {}

  running(running: boolean): void {
    this.set(CONTEXT_KEYS.running, running);
  }

  pendingChanges(count: number): void {
    this.set(CONTEXT_KEYS.hasPendingChange, count > 0);
  }

  plan(plan: PlanInfo | null | undefined): void {
    this.set(CONTEXT_KEYS.hasPlan, Boolean(plan));
    this.set(CONTEXT_KEYS.planPending, plan?.status === 'proposed' || plan?.status === 'edited');
  }

  worktree(inView: boolean): void {
    this.set(CONTEXT_KEYS.inWorktree, inView);
  }

  /** The values set so far, for the extension's own tests. */
  values(): Record<string, boolean> {
    return Object.fromEntries(this.current.entries());
  }

  private set(key: ContextKey, value: boolean): void {
    if (this.current.get(key) === value) return;
    this.current.set(key, value);
    vscode.commands.executeCommand('setContext', key, value).then(undefined, (err: unknown) =>
      this.log('warn', `setting the context key ${key} failed: ${String(err)}`),
    );
  }
}
