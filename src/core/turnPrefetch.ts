import { errorMessage } from './errors';
import type { LoopToolCall } from './loop/loopTypes';

/** A later call of the turn, looked at ahead of its turn. */
export interface Prefetched<Resolved, Previewed, Answer> {
  /** Hooks run and input parsed: never done twice for one call. */
  resolved: Resolved;
  /** Set when the preview could be computed early (its files are untouched by the calls before it). */
  previewed?: Previewed;
  /** Set when the person was asked early. */
  answer?: Promise<Answer>;
}

export interface PrefetchSteps<Resolved, Previewed, Answer> {
  /** Whether a call may be looked at early (file-changing tools with a preview). */
  eligible(call: LoopToolCall): boolean;
  resolve(call: LoopToolCall): Promise<Resolved>;
  /** The preview and the absolute paths it touches; undefined when the call already failed. */
  preview(resolved: Resolved): Promise<{ previewed: Previewed; paths: string[]; ask: boolean } | undefined>;
  ask(previewed: Previewed): Promise<Answer>;
  log(message: string): void;
}

/**
 * The file changes one model turn proposes, asked about together: when a call waits for the
 * person, the file-changing calls right after it in the same turn are previewed and asked at
 * once, so the person sees every pending change (and can accept or reject them all) instead
 * of one card at a time. Calls still run in order. A call whose files an earlier call of the
 * batch touches is not previewed early (its preview must see the earlier change).
 */
export class TurnPrefetch<Resolved, Previewed, Answer> {
  private calls: readonly LoopToolCall[] = [];
  private readonly pending = new Map<string, Promise<Prefetched<Resolved, Previewed, Answer> | undefined>>();

  /** A new turn's calls (from its assistant message); drops what was fetched for the last one. */
  startTurn(calls: readonly LoopToolCall[]): void {
    this.calls = calls;
    this.pending.clear();
  }

  clear(): void {
    this.startTurn([]);
  }

  /** What was fetched early for this call, if anything; each call is taken once. */
  take(toolCallId: string): Promise<Prefetched<Resolved, Previewed, Answer> | undefined> | undefined {
    const found = this.pending.get(toolCallId);
    this.pending.delete(toolCallId);
    return found;
  }

  /**
   * `toolCallId` is waiting for the person and touches `busyPaths`: look at the eligible calls
   * that follow it, one after another, registering each at once so its own turn finds it.
   */
  after(toolCallId: string, busyPaths: readonly string[], steps: PrefetchSteps<Resolved, Previewed, Answer>): void {
    const index = this.calls.findIndex((c) => c.toolCallId === toolCallId);
    if (index < 0) return;
    const busy = new Set(busyPaths);
    let previous: Promise<unknown> = Promise.resolve();
    for (let i = index + 1; i < this.calls.length; i++) {
      const call = this.calls[i]!;
      if (!steps.eligible(call) || this.pending.has(call.toolCallId)) break;
      const entry = previous.then(async (): Promise<Prefetched<Resolved, Previewed, Answer> | undefined> => {
        try {
          const resolved = await steps.resolve(call);
          const seen = await steps.preview(resolved);
          if (!seen) return { resolved };
          if (seen.paths.some((p) => busy.has(p))) {
            for (const p of seen.paths) busy.add(p);
            return { resolved };
          }
          for (const p of seen.paths) busy.add(p);
          return seen.ask ? { resolved, previewed: seen.previewed, answer: steps.ask(seen.previewed) } : { resolved, previewed: seen.previewed };
        } catch (err) {
          steps.log(`looking ahead at ${call.toolName} (${call.toolCallId}) failed; it runs in its turn: ${errorMessage(err)}`);
          return undefined;
        }
      });
      this.pending.set(call.toolCallId, entry);
      previous = entry;
    }
  }
}
