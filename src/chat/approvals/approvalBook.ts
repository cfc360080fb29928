import type { ApprovalAnswer, ApprovalRequest } from '../../core/tools';
import type { FileChange } from '../../core/tools';
import { MAX_CHANGE_TEXT_CHARS } from '../../protocol/limits';
import type { ProposedChange, ToolApprovalRequest } from '../../protocol/toolApproval';
import { toJsonValue } from '../conversations/jsonValue';
import { lineDiffStats } from '../parts/lineDiffStats';

/** One approval the person has not answered yet. */
export interface OpenApproval {
  readonly request: ToolApprovalRequest;
  /** The full change (the request's copy may leave out large texts), for the diff editor. */
  readonly change?: FileChange;
  /** Aborted when the approval is settled, so a request still shown in the view is withdrawn. */
  readonly settled: AbortSignal;
}

interface Entry extends OpenApproval {
  resolve(answer: ApprovalAnswer): void;
  controller: AbortController;
}

/**
 * The approvals the agent is waiting for, in the order asked. The host owns them: the view
 * only shows them, and gets them again (snapshot, then one request each) after every reload.
 */
export class ApprovalBook {
  private readonly open = new Map<string, Entry>();
  private next = 0;

  constructor(private readonly idPrefix = `ap-${Date.now().toString(36)}-`) {}

  /** Records a core request and returns what to send to the view and the answer to wait for. */
  add(core: ApprovalRequest): { approval: OpenApproval; answer: Promise<ApprovalAnswer> } {
    const id = `${this.idPrefix}${++this.next}`;
    const controller = new AbortController();
    let resolve!: (answer: ApprovalAnswer) => void;
    const answer = new Promise<ApprovalAnswer>((r) => {
      resolve = r;
    });
    const entry: Entry = { request: toApprovalRequest(id, core), settled: controller.signal, resolve, controller };
    if (core.change) Object.assign(entry, { change: core.change });
    this.open.set(id, entry);
    return { approval: entry, answer };
  }

  /**
   * Settles an approval with the person's answer, from the page (its answer is the core's,
   * less the host-only fields), the diff editor or a command; false when it was already settled
   * (or never existed).
   */
  settleWith(id: string, answer: ApprovalAnswer): boolean {
    const entry = this.open.get(id);
    if (!entry) return false;
    this.settle(entry, answer);
    return true;
  }

  /** Rejects every open approval (the run stopped); returns how many there were. */
  rejectAll(reason: string): number {
    const entries = [...this.open.values()];
    for (const entry of entries) this.settle(entry, { approved: false, reason });
    return entries.length;
  }

  get(id: string): OpenApproval | undefined {
    return this.open.get(id);
  }

  byToolCall(toolCallId: string): OpenApproval | undefined {
    for (const entry of this.open.values()) if (entry.request.toolCallId === toolCallId) return entry;
    return undefined;
  }

  pending(): OpenApproval[] {
    return [...this.open.values()];
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * A protected path is never allowed for the session: such an answer counts once (the core
   * ignores the session scope there too). A blank reason is no reason.
   */
  private settle(entry: Entry, answer: ApprovalAnswer): void {
    this.open.delete(entry.request.id);
    entry.controller.abort();
    const { reason, ...rest } = answer;
    const accepted: ApprovalAnswer = entry.request.protected && rest.scope === 'session' ? { ...rest, scope: 'once' } : rest;
    if (reason?.trim()) accepted.reason = reason.trim();
    entry.resolve(accepted);
  }
}

/** The core's request as the page gets it: the same fields, with the host's id and the change as a diff. */
export function toApprovalRequest(id: string, core: ApprovalRequest): ToolApprovalRequest {
  const { input, paths, change, allowPrefixes, network, unsandboxed, writeAccess, ...same } = core;
  const request: ToolApprovalRequest = { id, ...same, input: toJsonValue(input), paths: [...paths] };
  if (change) request.change = proposedChange(change);
  if (allowPrefixes?.length) request.allowPrefixes = [...allowPrefixes];
  if (network) request.network = true;
  if (unsandboxed) request.unsandboxed = true;
  if (writeAccess) request.writeAccess = true;
  return request;
}

export function proposedChange(change: FileChange): ProposedChange {
  const stats = lineDiffStats(change.before, change.after);
  const proposed: ProposedChange = {
    path: change.path,
    displayPath: change.displayPath,
    kind: change.before === null ? 'create' : change.after === null ? 'delete' : 'edit',
    added: stats.added,
    removed: stats.removed,
  };
  // Left out entirely when too large: the card then offers the diff editor instead.
  if (change.before === null || change.before.length <= MAX_CHANGE_TEXT_CHARS) proposed.before = change.before;
  if (change.after === null || change.after.length <= MAX_CHANGE_TEXT_CHARS) proposed.after = change.after;
  return proposed;
}
