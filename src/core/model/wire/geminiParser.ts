import { randomUUID } from 'node:crypto';
import type { FinishReason, StreamPart, Usage } from './modelSpec';
import { streamError } from './wireHttp';
import type { WireParser } from './wire';

/*
 * Google's streamGenerateContent with `alt=sse`, stream side: each event is a whole
 * GenerateContentResponse whose first candidate carries the next parts (text, `thought` text,
 * whole function calls), the last one its finishReason, and usageMetadata as counted so far.
 * A part's thought signature goes on the stream part made of it as provider metadata under the
 * names the AI SDK's providers write (`google` for the Gemini API), where the request reads it back.
 */

interface RawUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  toolUsePromptTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

interface RawPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: unknown };
}

interface Chunk {
  candidates?: Array<{ content?: { parts?: RawPart[] }; finishReason?: string }>;
  usageMetadata?: RawUsage;
  promptFeedback?: { blockReason?: string };
  error?: { code?: number; message?: string; status?: string };
}

export function geminiFinishReason(raw: string | undefined, calls: boolean): FinishReason {
  switch (raw) {
    case 'STOP':
      return { unified: calls ? 'tool-calls' : 'stop', raw };
    case 'MAX_TOKENS':
    case 'CONTINUATION':
      return { unified: 'length', raw };
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return { unified: 'content-filter', raw };
    case 'MALFORMED_FUNCTION_CALL':
      return { unified: 'error', raw };
    default:
      return { unified: 'other', raw };
  }
}

/** Cached tokens are counted within the prompt's, thoughts apart from the answer's. */
function usageOf(u: RawUsage | undefined): Usage {
  if (!u) return { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  const input = (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0);
  const cached = u.cachedContentTokenCount ?? 0;
  const text = u.candidatesTokenCount ?? 0;
  const thoughts = u.thoughtsTokenCount ?? 0;
  return {
    inputTokens: { total: input, noCache: input - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: text + thoughts, text, reasoning: thoughts },
  };
}

/**
 * `names`: the providerOptions names the signatures go under (the request's flavour's names).
 */
export function geminiParser(names: readonly string[]): (emit: (part: StreamPart) => void) => WireParser {
  const metaOf = (signature: string | undefined) => (signature === undefined ? undefined : Object.fromEntries(names.map((n) => [n, { thoughtSignature: signature }])));
  return (emit) => {
    let usage: RawUsage | undefined;
    let finishReason: FinishReason = { unified: 'other', raw: undefined };
    let text: string | undefined;
    let reasoning: string | undefined;
    let blocks = 0;
    let calls = false;
    let ended = false;

    const closeText = () => {
      if (text === undefined) return;
      emit({ type: 'text-end', id: text });
      text = undefined;
    };
    const closeReasoning = () => {
      if (reasoning === undefined) return;
      emit({ type: 'reasoning-end', id: reasoning });
      reasoning = undefined;
    };

    const part = (p: RawPart) => {
      const providerMetadata = metaOf(p.thoughtSignature);
      if (p.functionCall) {
        closeText();
        closeReasoning();
        const id = p.functionCall.id || `call_${randomUUID()}`;
        const toolName = p.functionCall.name ?? '';
        // Gemini sends a call whole; a call without arguments sends none.
        const input = p.functionCall.args === undefined ? '{}' : typeof p.functionCall.args === 'string' ? p.functionCall.args : JSON.stringify(p.functionCall.args);
        emit({ type: 'tool-input-start', id, toolName });
        emit({ type: 'tool-input-delta', id, delta: input });
        emit({ type: 'tool-input-end', id });
        emit({ type: 'tool-call', toolCallId: id, toolName, input, ...(providerMetadata ? { providerMetadata } : {}) });
        calls = true;
        return;
      }
      if (typeof p.text !== 'string') return;
      const thought = p.thought === true;
      if (p.text === '') {
        // An empty part that only carries a signature keeps it where it stands.
        if (!providerMetadata) return;
        if (!thought && text !== undefined) {
          emit({ type: 'text-delta', id: text, delta: '', providerMetadata });
          return;
        }
        closeReasoning();
        const id = String(blocks++);
        if (thought) {
          emit({ type: 'reasoning-start', id, providerMetadata });
          emit({ type: 'reasoning-end', id });
        } else {
          emit({ type: 'text-start', id, providerMetadata });
          emit({ type: 'text-delta', id, delta: '', providerMetadata });
          emit({ type: 'text-end', id });
        }
        return;
      }
      if (thought) {
        closeText();
        if (reasoning === undefined) {
          reasoning = String(blocks++);
          emit({ type: 'reasoning-start', id: reasoning });
        }
        emit({ type: 'reasoning-delta', id: reasoning, delta: p.text, ...(providerMetadata ? { providerMetadata } : {}) });
      } else {
        closeReasoning();
        if (text === undefined) {
          text = String(blocks++);
          emit({ type: 'text-start', id: text });
        }
        emit({ type: 'text-delta', id: text, delta: p.text, ...(providerMetadata ? { providerMetadata } : {}) });
      }
    };

    return {
      data(data) {
        const chunk = JSON.parse(data) as Chunk;
        if (typeof chunk !== 'object' || chunk === null) return;
        if (chunk.error) throw streamError({ message: chunk.error.message, code: chunk.error.code, type: chunk.error.status });
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
        const blocked = chunk.promptFeedback?.blockReason;
        if (blocked && blocked !== 'BLOCK_REASON_UNSPECIFIED') finishReason = { unified: 'content-filter', raw: blocked };
        const candidate = chunk.candidates?.[0];
        if (!candidate) return;
        const parts = candidate.content?.parts;
        if (parts) for (const p of parts) part(p);
        if (candidate.finishReason) finishReason = geminiFinishReason(candidate.finishReason, calls);
      },
      end() {
        if (ended) return;
        ended = true;
        closeText();
        closeReasoning();
        emit({ type: 'finish', finishReason, usage: usageOf(usage) });
      },
    };
  };
}
