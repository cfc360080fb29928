import type { FinishReason, StreamPart } from './modelSpec';
import { streamError } from './wireHttp';
import type { WireParser } from './wire';
import { cachedUsage, closeAll, closeAt, stopReasonOf } from './blockStream';
import type { OpenBlock } from './blockStream';

/*
 * Anthropic's Messages API, stream side: `message_start`, then per content block a start,
 * deltas and a stop, then `message_delta` (stop reason, output tokens) and `message_stop`.
 * Thinking signatures and redacted thinking travel as the reasoning parts' provider metadata
 * under `anthropic`, the names the request side (and the AI SDK's provider) reads back.
 */

interface RawUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

interface Event {
  type?: string;
  index?: number;
  message?: { usage?: RawUsage };
  content_block?: { type?: string; id?: string; name?: string; data?: string };
  delta?: { type?: string; text?: string; thinking?: string; signature?: string; partial_json?: string; stop_reason?: string | null };
  usage?: RawUsage;
  error?: unknown;
}

export function messagesParser(emit: (part: StreamPart) => void): WireParser {
  const blocks = new Map<number, OpenBlock>();
  let raw: RawUsage = {};
  let finishReason: FinishReason = { unified: 'other', raw: undefined };
  let ended = false;

  const start = (index: number, block: NonNullable<Event['content_block']>) => {
    const id = String(index);
    if (block.type === 'text') {
      blocks.set(index, { kind: 'text', id });
      emit({ type: 'text-start', id });
    } else if (block.type === 'thinking') {
      blocks.set(index, { kind: 'reasoning', id });
      emit({ type: 'reasoning-start', id });
    } else if (block.type === 'redacted_thinking') {
      blocks.set(index, { kind: 'reasoning', id });
      emit({ type: 'reasoning-start', id, providerMetadata: { anthropic: { redactedData: block.data ?? '' } } });
    } else if (block.type === 'tool_use') {
      const open: OpenBlock = { kind: 'tool', id: block.id ?? `call_${index}`, name: block.name ?? '', args: '' };
      blocks.set(index, open);
      emit({ type: 'tool-input-start', id: open.id, toolName: open.name! });
    }
  };

  const delta = (index: number, d: NonNullable<Event['delta']>) => {
    const open = blocks.get(index);
    if (!open) return;
    if (d.type === 'text_delta' && typeof d.text === 'string' && d.text !== '') emit({ type: 'text-delta', id: open.id, delta: d.text });
    else if (d.type === 'thinking_delta' && typeof d.thinking === 'string' && d.thinking !== '') emit({ type: 'reasoning-delta', id: open.id, delta: d.thinking });
    else if (d.type === 'signature_delta' && typeof d.signature === 'string') {
      emit({ type: 'reasoning-delta', id: open.id, delta: '', providerMetadata: { anthropic: { signature: d.signature } } });
    } else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string' && d.partial_json !== '') {
      open.args += d.partial_json;
      emit({ type: 'tool-input-delta', id: open.id, delta: d.partial_json });
    }
  };

  return {
    data(data) {
      const event = JSON.parse(data) as Event;
      if (typeof event !== 'object' || event === null) return;
      const index = typeof event.index === 'number' ? event.index : -1;
      switch (event.type) {
        case 'message_start':
          raw = { ...raw, ...event.message?.usage };
          break;
        case 'content_block_start':
          if (event.content_block) start(index, event.content_block);
          break;
        case 'content_block_delta':
          if (event.delta) delta(index, event.delta);
          break;
        case 'content_block_stop':
          closeAt(blocks, index, emit);
          break;
        case 'message_delta':
          if (event.delta?.stop_reason !== undefined) finishReason = stopReasonOf(event.delta.stop_reason);
          // Later counts replace earlier ones; fields a provider leaves out keep theirs.
          if (event.usage) for (const [k, v] of Object.entries(event.usage)) if (typeof v === 'number') (raw as Record<string, number>)[k] = v;
          break;
        case 'error':
          throw streamError(event.error);
        default:
          break;
      }
    },
    end() {
      if (ended) return;
      ended = true;
      closeAll(blocks, emit);
      emit({ type: 'finish', finishReason, usage: cachedUsage(raw.input_tokens, raw.cache_read_input_tokens ?? 0, raw.cache_creation_input_tokens ?? 0, raw.output_tokens) });
    },
  };
}
