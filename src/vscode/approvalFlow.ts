import { errorMessage } from '../core/errors';
import type { ApprovalAnswer, ApprovalRequest } from '../core/projectTypes';
import type { FileChange } from '../core/tools/tool';
import { isBusError } from '../protocol/busError';
import type { LogFn } from '../protocol/log';
import type { ToolApprovalRequest } from '../protocol/toolApproval';
import { ApprovalBook } from './approvalBook';
import type { OpenApproval } from './approvalBook';
import type { ViewLink } from './chatController';
import type { ConversationState } from './conversationState';

/** Bus errors that only mean the view went away; the next `ready` asks again. */
const VIEW_GONE = new Set(['peer_reset', 'not_ready', 'disposed', 'aborted']);

export interface ApprovalFlowOptions {
  state: Pick<ConversationState, 'awaitingApproval' | 'error'>;
  /** The view, only while it holds the current snapshot. */
  syncedView(): ViewLink | undefined;
  log: LogFn;
  /** The number of open approvals changed. */
  onChange(): void;
  /** An approval is waiting: bring the view into sight. */
  onNeeded?(): void;
}

/**
 * Tool approvals between the core and the view: each core request becomes a `toolApproval`
 * request to whichever view is showing the conversation, asked again after every reload,
 * and rejected when the run stops first.
 */
export class ApprovalFlow {
  private readonly book = new ApprovalBook();

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
      this.book.answer(approval.request.id, { decision: 'reject', reason: 'the run was cancelled' });
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.opts.state.awaitingApproval(request.toolCallId);
    this.show(approval);
    this.opts.onChange();
    this.opts.onNeeded?.();
    return answer.finally(() => {
      signal.removeEventListener('abort', onAbort);
      this.opts.onChange();
    });
  }

  /** After a snapshot: the new page gets every open approval again. */
  showAll(): void {
    for (const approval of this.book.pending()) this.show(approval);
  }

  rejectAll(reason: string): void {
    if (this.book.rejectAll(reason) > 0) this.opts.onChange();
  }

  /** Sends one approval to the view; when the view goes away first, the next `ready` sends it again. */
  private show(approval: OpenApproval): void {
    const view = this.opts.syncedView();
    if (!view || approval.settled.aborted) return;
    view.outbox.request('toolApproval', approval.request, { signal: approval.settled }).then(
      (result) => {
        if (!this.book.answer(approval.request.id, result)) {
          this.opts.log('debug', `approval ${approval.request.id} was answered after it was settled`);
        }
      },
      (err: unknown) => {
        if (isBusError(err) && VIEW_GONE.has(err.code)) return;
        this.opts.log('error', `asking the view about ${approval.request.tool} failed: ${errorMessage(err)}`);
        this.opts.state.error({
          code: 'internal',
          message: `The approval card for ${approval.request.tool} could not be shown (${errorMessage(err)}). Reload the view or stop the run.`,
          retryable: false,
        });
      },
    );
  }
}
