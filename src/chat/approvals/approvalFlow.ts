import * as l10n from '@vscode/l10n';
import { errorMessage } from '../../core/errors';
import type { ApprovalAnswer, ApprovalRequest } from '../../core/tools';
import type { FileChange } from '../../core/tools';
import { isBusError } from '../../protocol/busError';
import type { LogFn } from '../../protocol/log';
import type { ToolApprovalRequest } from '../../protocol/toolApproval';
import { ApprovalBook } from './approvalBook';
import type { OpenApproval } from './approvalBook';
import type { ViewLink } from '../bus/viewSync';
import type { ConversationState } from '../conversations/conversationState';

/** Bus errors that only mean the view went away; the next `ready` asks again. */
const VIEW_GONE = new Set(['peer_reset', 'not_ready', 'disposed', 'aborted']);

/**
 * What shows and reviews file changes outside the chat (the diff editor): told when a change
 * approval opens and closes, and asked to complete an approving answer with what the person
 * settled on there (accepted hunks, their edits) before the core gets it.
 */
export interface ChangeApprovalHooks {
  opened(approvalId: string, request: ApprovalRequest): void;
  amend(approvalId: string, answer: ApprovalAnswer): Promise<ApprovalAnswer>;
  closed(approvalId: string): void;
}

export interface ApprovalFlowOptions {
  state: Pick<ConversationState, 'awaitingApproval' | 'error'>;
  /** The view, only while it holds the current snapshot. */
  syncedView(): ViewLink | undefined;
  log: LogFn;
  /** The number of open approvals changed. */
  onChange(): void;
  /** An approval is waiting: bring the view into sight. */
  onNeeded?(): void;
  /** The diff editor side of file changes. */
  changes?: ChangeApprovalHooks;
}

/**
 * Tool approvals between the core and the view: each core request becomes a `toolApproval`
 * request to whichever view is showing the conversation, asked again after every reload,
 * and rejected when the run stops first.
 */
export class ApprovalFlow {
  private readonly book = new ApprovalBook();
  /** Approvals whose answer is being completed (see ChangeApprovalHooks.amend): a second answer is ignored. */
  private readonly deciding = new Set<string>();
  /** Withdraws the cards shown in the view (the conversation left the view; it asks again when back). */
  private shown = new AbortController();

  constructor(private readonly opts: ApprovalFlowOptions) {}

  get size(): number {
    return this.book.size;
  }

  /** The requests still open, for snapshots. */
  pending(): ToolApprovalRequest[] {
    return this.book.pending().map((a) => a.request);
  }

  /** The full proposed change of an open approval, for the diff editor. */
  change(id: string): FileChange | undefined {
    return this.book.get(id)?.change;
  }

  /** The core's `onToolApprove`: waits for the person, or for the run's end (rejected). */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (signal.aborted) return Promise.resolve({ approved: false, reason: 'the run was cancelled' });
    const { approval, answer } = this.book.add(request);
    const onAbort = (): void => {
      this.book.settleWith(approval.request.id, { approved: false, reason: 'the run was cancelled' });
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.opts.state.awaitingApproval(request.toolCallId);
    if (request.change) this.opts.changes?.opened(approval.request.id, request);
    this.show(approval);
    this.opts.onChange();
    this.opts.onNeeded?.();
    return answer.finally(() => {
      signal.removeEventListener('abort', onAbort);
      if (request.change) this.opts.changes?.closed(approval.request.id);
      this.opts.onChange();
    });
  }

  /**
   * Settles an open approval with the person's answer, given on the chat card, in the diff
   * editor or by a command (a card still shown is withdrawn). False when it was no longer open.
   */
  async decide(id: string, answer: ApprovalAnswer): Promise<boolean> {
    const approval = this.book.get(id);
    if (!approval || this.deciding.has(id)) return false;
    this.deciding.add(id);
    try {
      let final = answer;
      if (answer.approved && approval.change && this.opts.changes) {
        try {
          final = await this.opts.changes.amend(id, answer);
        } catch (err) {
          // Without the reviewed content, writing the raw proposal could undo the person's choices.
          // The log and the model get English; the person reads it in their language.
          const problem = `Keel could not read the reviewed change to ${approval.change.displayPath} (${errorMessage(err)}); nothing was written.`;
          this.opts.log('error', problem);
          const shown = l10n.t('Keel could not read the reviewed change to {0} ({1}); nothing was written.', approval.change.displayPath, errorMessage(err));
          this.opts.state.error({ code: 'internal', message: shown, retryable: false });
          final = { approved: false, reason: problem };
        }
      }
      return this.book.settleWith(id, final);
    } finally {
      this.deciding.delete(id);
    }
  }

  /** After a snapshot: the new page gets every open approval again. */
  showAll(): void {
    for (const approval of this.book.pending()) this.show(approval);
  }

  /** The conversation left the view: its cards go from the page; the approvals stay open, shown again by `showAll`. */
  withdrawShown(): void {
    this.shown.abort();
    this.shown = new AbortController();
  }

  rejectAll(reason: string): void {
    if (this.book.rejectAll(reason) > 0) this.opts.onChange();
  }

  /** Sends one approval to the view; when the view goes away first, the next `ready` sends it again. */
  private show(approval: OpenApproval): void {
    const view = this.opts.syncedView();
    if (!view || approval.settled.aborted) return;
    const signal = AbortSignal.any([approval.settled, this.shown.signal]);
    view.outbox.request('toolApproval', approval.request, { signal }).then(
      (result) => {
        void this.decide(approval.request.id, result).then(
          (settled) => {
            if (!settled) this.opts.log('debug', `approval ${approval.request.id} was answered after it was settled`);
          },
          (err: unknown) => this.opts.log('error', `settling approval ${approval.request.id} failed: ${errorMessage(err)}`),
        );
      },
      (err: unknown) => {
        if (isBusError(err) && VIEW_GONE.has(err.code)) return;
        this.opts.log('error', `asking the view about ${approval.request.tool} failed: ${errorMessage(err)}`);
        this.opts.state.error({
          code: 'internal',
          message: l10n.t('The approval card for {0} could not be shown ({1}). Reload the view or stop the run.', approval.request.tool, errorMessage(err)),
          retryable: false,
        });
      },
    );
  }
}
