import type { ApprovalAnswer, ApprovalRequest } from '../../core/tools';
import type { FileChange } from '../../core/tools';
import { MAX_CHANGE_TEXT_CHARS } from '../../protocol/limits';
import type { ProposedChange, ToolApprovalRequest, ToolApprovalResult } from '../../protocol/toolApproval';
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

  /** Applies the person's decision; false when the approval was already settled (or never existed). */
  answer(id: string, result: ToolApprovalResult): boolean {
    const entry = this.open.get(id);
    if (!entry) return false;
    this.settle(entry, toApprovalAnswer(result, entry.request.protected));
    return true;
  }

  /** Settles an approval with an answer already in the core's terms (from the diff editor or a command). */
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

  private settle(entry: Entry, answer: ApprovalAnswer): void {
    this.open.delete(entry.request.id);
    entry.controller.abort();
    entry.resolve(answer);
  }
}

/**
 * alwaysAllow approves for the rest of the session, except on a protected path, where it
 * counts once (the core would ignore the session scope there anyway; saying so is clearer).
 */
export function toApprovalAnswer(result: ToolApprovalResult, protectedPath: boolean): ApprovalAnswer {
  switch (result.decision) {
    case 'approve':
      return { approved: true, scope: 'once' };
    case 'alwaysAllow':
      return { approved: true, scope: protectedPath ? 'once' : 'session' };
    case 'reject':
      return result.reason?.trim() ? { approved: false, reason: result.reason.trim() } : { approved: false };
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
