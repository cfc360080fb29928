import type { ToolApprovalAnswer } from '../../src/protocol/toolApproval';

/**
 * The open `toolApproval` requests' answers, by approval id. A card listed in a snapshot
 * may be answered before the host re-sends its request; that answer is kept and given
 * as soon as the request arrives.
 */
export class ApprovalWaiters {
  private readonly waiting = new Map<string, (result: ToolApprovalAnswer) => void>();
  private readonly early = new Map<string, ToolApprovalAnswer>();

  /** Resolves with the person's answer; an early answer resolves at once. */
  wait(id: string): Promise<ToolApprovalAnswer> {
    const early = this.early.get(id);
    if (early) {
      this.early.delete(id);
      return Promise.resolve(early);
    }
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
    });
  }

  /** Returns true when an open request took the answer, false when it was kept for later. */
  answer(id: string, result: ToolApprovalAnswer): boolean {
    const resolve = this.waiting.get(id);
    if (!resolve) {
      this.early.set(id, result);
      return false;
    }
    this.waiting.delete(id);
    resolve(result);
    return true;
  }

  isOpen(id: string): boolean {
    return this.waiting.has(id);
  }

  /** The host withdrew the request (run stopped): nobody will read an answer. */
  forget(id: string): void {
    this.waiting.delete(id);
    this.early.delete(id);
  }
}
