import type { IncomingMessage } from 'node:http';
import { readEventStream } from './eventStreamReader';
import type { FinishReason, StreamPart, Usage } from './modelSpec';
import { WireStreamError } from './wireHttp';
import type { WireParser } from './wire';
import { cachedUsage, closeAll, closeAt, stopReasonOf } from './blockStream';
import type { OpenBlock } from './blockStream';

/*
 * Amazon Bedrock's ConverseStream, stream side. Each event of the AWS event stream reaches the
 * parser as `{"<event type>": <payload>}` (an exception as `{"exception": …}`): messageStart,
 * per content block a contentBlockStart (tool use only), deltas and a contentBlockStop, then
 * messageStop (the stop reason) and metadata (usage with cache reads and writes). Reasoning
 * signatures and redacted reasoning travel as provider metadata under `bedrock`.
 */

/** The event stream's messages as the text the parser reads. */
export function readConverseEvents(response: IncomingMessage, onData: (data: string) => void, onRead: () => void): Promise<void> {
  return readEventStream(
    response,
    (m) => {
      if (m.messageType === 'event') onData(`{${JSON.stringify(m.type)}:${m.payload === '' ? '{}' : m.payload}}`);
      else onData(JSON.stringify({ exception: { type: m.type, payload: m.payload } }));
    },
    onRead,
  );
}

interface Delta {
  text?: string;
  toolUse?: { input?: string };
  reasoningContent?: { text?: string; signature?: string; redactedContent?: string };
}

interface Event {
  contentBlockStart?: { contentBlockIndex?: number; start?: { toolUse?: { toolUseId?: string; name?: string } } };
  contentBlockDelta?: { contentBlockIndex?: number; delta?: Delta };
  contentBlockStop?: { contentBlockIndex?: number };
  messageStop?: { stopReason?: string };
  metadata?: { usage?: { inputTokens?: number; outputTokens?: number; cacheReadInputTokens?: number; cacheWriteInputTokens?: number } };
  exception?: { type: string; payload: string };
}

/** What an exception's payload says (`{"message": …}`, or the text itself). */
function exceptionError(type: string, payload: string): WireStreamError {
  let message = payload;
  try {
    const parsed = JSON.parse(payload) as { message?: unknown; Message?: unknown };
    const said = parsed.message ?? parsed.Message;
    if (typeof said === 'string') message = said;
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  return new WireStreamError(message || type, type, type);
}

export function converseParser(emit: (part: StreamPart) => void): WireParser {
  const blocks = new Map<number, OpenBlock>();
  let usage: Usage = { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  let finishReason: FinishReason = { unified: 'other', raw: undefined };
  let ended = false;

  const open = (index: number, kind: OpenBlock['kind']): OpenBlock => {
    const current = blocks.get(index);
    if (current) return current;
    const block: OpenBlock = { kind, id: String(index) };
    blocks.set(index, block);
    emit(kind === 'text' ? { type: 'text-start', id: block.id } : { type: 'reasoning-start', id: block.id });
    return block;
  };

  const delta = (index: number, d: Delta) => {
    if (typeof d.text === 'string') {
      const block = open(index, 'text');
      if (d.text !== '') emit({ type: 'text-delta', id: block.id, delta: d.text });
      return;
    }
    const reasoning = d.reasoningContent;
    if (reasoning) {
      const block = open(index, 'reasoning');
      if (typeof reasoning.text === 'string' && reasoning.text !== '') emit({ type: 'reasoning-delta', id: block.id, delta: reasoning.text });
      if (typeof reasoning.signature === 'string') emit({ type: 'reasoning-delta', id: block.id, delta: '', providerMetadata: { bedrock: { signature: reasoning.signature } } });
      if (typeof reasoning.redactedContent === 'string') emit({ type: 'reasoning-delta', id: block.id, delta: '', providerMetadata: { bedrock: { redactedData: reasoning.redactedContent } } });
      return;
    }
    const input = d.toolUse?.input;
    const block = blocks.get(index);
    if (block?.kind === 'tool' && typeof input === 'string' && input !== '') {
      block.args += input;
      emit({ type: 'tool-input-delta', id: block.id, delta: input });
    }
  };

  return {
    data(data) {
      const event = JSON.parse(data) as Event;
      if (typeof event !== 'object' || event === null) return;
      if (event.exception) throw exceptionError(event.exception.type, event.exception.payload);
      const start = event.contentBlockStart;
      if (start) {
        const use = start.start?.toolUse;
        const index = start.contentBlockIndex ?? blocks.size;
        if (use) {
          const block: OpenBlock = { kind: 'tool', id: use.toolUseId ?? `tooluse_${index}`, name: use.name ?? '', args: '' };
          blocks.set(index, block);
          emit({ type: 'tool-input-start', id: block.id, toolName: block.name! });
        }
      }
      const d = event.contentBlockDelta;
      if (d?.delta) delta(d.contentBlockIndex ?? 0, d.delta);
      if (event.contentBlockStop) closeAt(blocks, event.contentBlockStop.contentBlockIndex ?? 0, emit);
      if (event.messageStop) finishReason = stopReasonOf(event.messageStop.stopReason);
      const u = event.metadata?.usage;
      if (u) {
        usage = cachedUsage(u.inputTokens, u.cacheReadInputTokens ?? 0, u.cacheWriteInputTokens ?? 0, u.outputTokens);
      }
    },
    end() {
      if (ended) return;
      ended = true;
      closeAll(blocks, emit);
      emit({ type: 'finish', finishReason, usage });
    },
  };
}
