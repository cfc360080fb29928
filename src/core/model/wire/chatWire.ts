import type { CallOptions, FinishReason, Prompt, StreamPart, Usage, Warning } from './modelSpec';
import { emitFinishedCall, PARALLEL_WRAPPER } from './parallelCalls';
import { callArguments, fileUrl, functionTools, isImage, toolOutputText } from './promptParts';
import { reasoningEffortOf } from '../reasoning';
import type { FilePart } from './promptParts';
import { streamError } from './wireHttp';
import type { WireParser, WireRequest } from './wire';

/** Whose Chat Completions: OpenAI's own (`max_completion_tokens`) or a compatible server's (`max_tokens`). */
export type ChatFlavor = 'openai' | 'compatible';

type ChatContent = string | null | Array<Record<string, unknown>>;
interface ChatMessage {
  role: string;
  content: ChatContent;
  [key: string]: unknown;
}

function userContent(parts: Extract<Prompt[number], { role: 'user' }>['content']): ChatContent {
  if (parts.length === 1 && parts[0].type === 'text') return parts[0].text;
  return parts.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    return filePart(part);
  });
}

function filePart(part: FilePart): Record<string, unknown> {
  if (part.data.type === 'text') return { type: 'text', text: part.data.text };
  if (isImage(part)) return { type: 'image_url', image_url: { url: fileUrl(part) } };
  if (part.mediaType === 'application/pdf' && part.data.type === 'data') {
    return { type: 'file', file: { filename: part.filename ?? 'document.pdf', file_data: fileUrl(part) } };
  }
  throw new Error(`Chat Completions cannot take a ${part.mediaType} file; attach its text or an image instead.`);
}

/** The prompt as Chat Completions messages. */
export function chatMessages(prompt: Prompt): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: userContent(message.content) });
        break;
      case 'assistant': {
        let text = '';
        let reasoning = '';
        const calls: Record<string, unknown>[] = [];
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          else if (part.type === 'reasoning') reasoning += part.text;
          else if (part.type === 'tool-call') {
            calls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: callArguments(part.input) } });
          }
        }
        const m: ChatMessage = { role: 'assistant', content: calls.length > 0 ? text || null : text };
        // DeepSeek, vLLM and others read the reasoning back; OpenAI ignores the field.
        if (reasoning) m.reasoning_content = reasoning;
        if (calls.length > 0) m.tool_calls = calls;
        out.push(m);
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          out.push({ role: 'tool', tool_call_id: part.toolCallId, content: toolOutputText(part.output) });
        }
        break;
    }
  }
  return out;
}

function toolChoice(options: CallOptions): unknown {
  const choice = options.toolChoice;
  if (!choice) return undefined;
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.toolName } };
  return choice.type;
}

export function chatRequest(modelId: string, flavor: ChatFlavor, options: CallOptions): WireRequest {
  const warnings: Warning[] = [];
  const tools = functionTools(options, warnings);
  if (options.topK !== undefined) warnings.push({ type: 'unsupported', feature: 'topK' });
  const body: Record<string, unknown> = {
    model: modelId,
    messages: chatMessages(options.prompt),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (options.maxOutputTokens !== undefined) body[flavor === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = options.maxOutputTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.frequencyPenalty !== undefined) body.frequency_penalty = options.frequencyPenalty;
  if (options.presencePenalty !== undefined) body.presence_penalty = options.presencePenalty;
  if (options.stopSequences?.length) body.stop = options.stopSequences;
  if (options.seed !== undefined) body.seed = options.seed;
  if (options.responseFormat?.type === 'json') body.response_format = { type: 'json_object' };
  const effort = reasoningEffortOf(options);
  if (effort !== undefined) body.reasoning_effort = effort;
  if (tools.length > 0) {
    body.tools = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.inputSchema, ...(t.strict !== undefined ? { strict: t.strict } : {}) },
    }));
    const choice = toolChoice(options);
    if (choice !== undefined) body.tool_choice = choice;
  }
  return { path: '/chat/completions', body, warnings };
}

export function finishReasonOf(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    default:
      return { unified: 'other', raw: raw ?? undefined };
  }
}

export function usageOf(input?: number, output?: number, cached?: number, reasoning?: number): Usage {
  return {
    inputTokens: { total: input, noCache: input !== undefined && cached !== undefined ? input - cached : input, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: output, text: output !== undefined && reasoning !== undefined ? output - reasoning : output, reasoning },
  };
}

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface Chunk {
  error?: unknown;
  choices?: { delta?: { content?: string | ContentPiece[] | null; reasoning_content?: string | null; reasoning?: string | null; tool_calls?: ChunkToolCall[] }; finish_reason?: string | null }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  } | null;
}

/** Mistral's reasoning models stream `content` as parts: `text`, and `thinking` holding text parts. */
interface ContentPiece {
  type?: string;
  text?: unknown;
  thinking?: unknown;
}

interface OpenCall {
  id: string;
  name: string;
  args: string;
  done: boolean;
}

/**
 * Turns Chat Completions chunks into stream parts. Only what correctness needs is checked:
 * the chunk is an object, the fields read have the types used. Tool-call fragments are
 * gathered per index and the call is given whole when the choice finishes (or the stream ends).
 */
export function chatParser(emit: (part: StreamPart) => void): WireParser {
  let textOpen = false;
  let reasoningOpen = false;
  let finishReason: FinishReason = { unified: 'other', raw: undefined };
  let usage: Usage = usageOf();
  const calls: OpenCall[] = [];
  const byIndex = new Map<number, OpenCall>();
  let ended = false;

  const closeText = () => {
    if (textOpen) emit({ type: 'text-end', id: 'text' });
    textOpen = false;
  };
  const closeReasoning = () => {
    if (reasoningOpen) emit({ type: 'reasoning-end', id: 'reasoning' });
    reasoningOpen = false;
  };
  const flushCalls = () => {
    for (const call of calls) {
      if (call.done) continue;
      call.done = true;
      emitFinishedCall(emit, call.id, call.name, call.args);
    }
  };
  const reasoningText = (text: string) => {
    if (text === '') return;
    if (!reasoningOpen) {
      reasoningOpen = true;
      emit({ type: 'reasoning-start', id: 'reasoning' });
    }
    emit({ type: 'reasoning-delta', id: 'reasoning', delta: text });
  };
  const contentText = (text: string) => {
    if (text === '') return;
    closeReasoning();
    if (!textOpen) {
      textOpen = true;
      emit({ type: 'text-start', id: 'text' });
    }
    emit({ type: 'text-delta', id: 'text', delta: text });
  };
  const contentPiece = (piece: ContentPiece | string | null) => {
    if (typeof piece === 'string') return contentText(piece);
    if (typeof piece !== 'object' || piece === null) return;
    if (piece.type === 'text' && typeof piece.text === 'string') return contentText(piece.text);
    if (piece.type !== 'thinking') return;
    const thinking = piece.thinking;
    if (typeof thinking === 'string') return reasoningText(thinking);
    if (!Array.isArray(thinking)) return;
    for (const part of thinking as (ContentPiece | string | null)[]) {
      if (typeof part === 'string') reasoningText(part);
      else if (part !== null && typeof part === 'object' && typeof part.text === 'string') reasoningText(part.text);
    }
  };
  const toolDelta = (fragment: ChunkToolCall) => {
    const index = typeof fragment.index === 'number' ? fragment.index : calls.length === 0 ? 0 : calls.length - 1;
    let call = byIndex.get(index);
    // Some servers reuse index 0 for every call of a turn; a new id there is a new call.
    if (call && typeof fragment.id === 'string' && fragment.id !== '' && fragment.id !== call.id && call.args !== '') call = undefined;
    if (!call) {
      closeText();
      closeReasoning();
      const id = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : `call_${calls.length}`;
      call = { id, name: fragment.function?.name ?? '', args: '', done: false };
      calls.push(call);
      byIndex.set(index, call);
      // A parallel wrapper is shown as the calls inside it, once they are known (flushCalls).
      if (call.name !== PARALLEL_WRAPPER) emit({ type: 'tool-input-start', id: call.id, toolName: call.name });
    } else if (!call.name && fragment.function?.name) {
      call.name = fragment.function.name;
    }
    const args = fragment.function?.arguments;
    if (typeof args === 'string' && args !== '') {
      call.args += args;
      if (call.name !== PARALLEL_WRAPPER) emit({ type: 'tool-input-delta', id: call.id, delta: args });
    }
  };

  return {
    data(data) {
      if (data === '[DONE]') return;
      const chunk = JSON.parse(data) as Chunk;
      if (typeof chunk !== 'object' || chunk === null) return;
      if (chunk.error !== undefined && chunk.error !== null) throw streamError(chunk.error);
      if (chunk.usage) {
        const u = chunk.usage;
        usage = usageOf(u.prompt_tokens, u.completion_tokens, u.prompt_tokens_details?.cached_tokens, u.completion_tokens_details?.reasoning_tokens);
      }
      const choice = chunk.choices?.[0];
      if (!choice) return;
      const delta = choice.delta;
      if (delta) {
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string') reasoningText(reasoning);
        const content = delta.content;
        if (typeof content === 'string') contentText(content);
        else if (Array.isArray(content)) for (const piece of content) contentPiece(piece);
        const fragments = delta.tool_calls;
        if (fragments) for (const fragment of fragments) toolDelta(fragment);
      }
      if (choice.finish_reason) {
        finishReason = finishReasonOf(choice.finish_reason);
        flushCalls();
      }
    },
    end() {
      if (ended) return;
      ended = true;
      closeReasoning();
      closeText();
      flushCalls();
      // A stream that ends with calls but no stated reason is a tool-call turn.
      if (finishReason.unified === 'other' && finishReason.raw === undefined && calls.length > 0) finishReason = { unified: 'tool-calls', raw: undefined };
      emit({ type: 'finish', finishReason, usage });
    },
  };
}
