import { finishReasonOf, usageOf } from './chatWire';
import type { CallOptions, FinishReason, Prompt, StreamPart, Usage, Warning } from './modelSpec';
import { emitFinishedCall, PARALLEL_WRAPPER } from './parallelCalls';
import { callArguments, fileUrl, functionTools, isImage, toolOutputText } from './promptParts';
import { reasoningEffortOf } from '../reasoning';
import { streamError } from './wireHttp';
import type { WireParser, WireRequest } from './wire';

type Item = Record<string, unknown>;

/**
 * The prompt as Responses input items. Reasoning is not sent back: the API only takes its
 * own reasoning items (by id or encrypted), which a conversation kept as text cannot give.
 */
export function responsesInput(prompt: Prompt): Item[] {
  const out: Item[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({
          role: 'user',
          content: message.content.map((part) => {
            if (part.type === 'text') return { type: 'input_text', text: part.text };
            if (part.data.type === 'text') return { type: 'input_text', text: part.data.text };
            if (isImage(part)) return { type: 'input_image', image_url: fileUrl(part) };
            if (part.mediaType === 'application/pdf' && part.data.type === 'data') {
              return { type: 'input_file', filename: part.filename ?? 'document.pdf', file_data: fileUrl(part) };
            }
            throw new Error(`The Responses API cannot take a ${part.mediaType} file here; attach its text or an image instead.`);
          }),
        });
        break;
      case 'assistant': {
        let text = '';
        const flushText = () => {
          if (text) out.push({ role: 'assistant', content: [{ type: 'output_text', text }] });
          text = '';
        };
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          else if (part.type === 'tool-call') {
            flushText();
            out.push({ type: 'function_call', call_id: part.toolCallId, name: part.toolName, arguments: callArguments(part.input) });
          }
        }
        flushText();
        break;
      }
      case 'tool':
        for (const part of message.content) {
          if (part.type !== 'tool-result') continue;
          out.push({ type: 'function_call_output', call_id: part.toolCallId, output: toolOutputText(part.output) });
        }
        break;
    }
  }
  return out;
}

export function responsesRequest(modelId: string, options: CallOptions): WireRequest {
  const warnings: Warning[] = [];
  const tools = functionTools(options, warnings);
  for (const feature of ['topK', 'seed', 'stopSequences', 'presencePenalty', 'frequencyPenalty'] as const) {
    if (options[feature] !== undefined) warnings.push({ type: 'unsupported', feature });
  }
  const body: Record<string, unknown> = { model: modelId, input: responsesInput(options.prompt), stream: true };
  if (options.maxOutputTokens !== undefined) body.max_output_tokens = options.maxOutputTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.topP !== undefined) body.top_p = options.topP;
  if (options.responseFormat?.type === 'json') body.text = { format: { type: 'json_object' } };
  const effort = reasoningEffortOf(options);
  if (effort !== undefined) body.reasoning = { effort };
  if (tools.length > 0) {
    body.tools = tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.inputSchema, ...(t.strict !== undefined ? { strict: t.strict } : {}) }));
    const choice = options.toolChoice;
    if (choice) body.tool_choice = choice.type === 'tool' ? { type: 'function', name: choice.toolName } : choice.type;
  }
  return { path: '/responses', body, warnings };
}

interface ResponsesEvent {
  type?: string;
  delta?: string;
  item_id?: string;
  item?: { type?: string; id?: string; call_id?: string; name?: string; arguments?: string };
  response?: {
    error?: unknown;
    incomplete_details?: { reason?: string } | null;
    usage?: {
      input_tokens?: number;
      output_tokens?: number;
      input_tokens_details?: { cached_tokens?: number };
      output_tokens_details?: { reasoning_tokens?: number };
    } | null;
  };
  error?: unknown;
  message?: string;
  code?: string;
}

/**
 * Turns Responses events into stream parts: text and reasoning (summary or raw) as they
 * stream, a function call once its item is done (with the arguments the item carries, or
 * the fragments gathered), usage and the finish reason from the final response.
 */
export function responsesParser(emit: (part: StreamPart) => void): WireParser {
  let open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  const calls = new Map<string, { callId: string; name: string; args: string }>();
  let called = false;
  let finishReason: FinishReason = { unified: 'other', raw: undefined };
  let usage: Usage = usageOf();

  const close = () => {
    if (open) emit({ type: open.kind === 'text' ? 'text-end' : 'reasoning-end', id: open.id });
    open = undefined;
  };
  const delta = (kind: 'text' | 'reasoning', id: string, text: string) => {
    if (open?.kind !== kind || open.id !== id) {
      close();
      open = { kind, id };
      emit({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id });
    }
    emit(kind === 'text' ? { type: 'text-delta', id, delta: text } : { type: 'reasoning-delta', id, delta: text });
  };

  return {
    data(data) {
      if (data === '[DONE]') return;
      const event = JSON.parse(data) as ResponsesEvent;
      if (typeof event !== 'object' || event === null) return;
      switch (event.type) {
        case 'response.output_text.delta':
          if (typeof event.delta === 'string' && event.delta !== '') delta('text', event.item_id ?? 'text', event.delta);
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          if (typeof event.delta === 'string' && event.delta !== '') delta('reasoning', event.item_id ?? 'reasoning', event.delta);
          break;
        case 'response.output_item.added': {
          const item = event.item;
          if (item?.type === 'function_call' && typeof item.id === 'string') {
            close();
            const call = { callId: item.call_id ?? item.id, name: item.name ?? '', args: '' };
            calls.set(item.id, call);
            // A parallel wrapper is shown as the calls inside it, once they are known.
            if (call.name !== PARALLEL_WRAPPER) emit({ type: 'tool-input-start', id: call.callId, toolName: call.name });
          }
          break;
        }
        case 'response.function_call_arguments.delta': {
          const call = event.item_id !== undefined ? calls.get(event.item_id) : undefined;
          if (call && typeof event.delta === 'string') {
            call.args += event.delta;
            if (call.name !== PARALLEL_WRAPPER) emit({ type: 'tool-input-delta', id: call.callId, delta: event.delta });
          }
          break;
        }
        case 'response.output_item.done': {
          const item = event.item;
          if (item?.type !== 'function_call') {
            if (open && item?.id === open.id) close();
            break;
          }
          const gathered = item.id !== undefined ? calls.get(item.id) : undefined;
          const callId = item.call_id ?? gathered?.callId ?? item.id ?? `call_${calls.size}`;
          if (item.id !== undefined) calls.delete(item.id);
          called = true;
          const name = item.name ?? gathered?.name ?? '';
          const args = item.arguments ?? gathered?.args ?? '';
          emitFinishedCall(emit, callId, name, args);
          break;
        }
        case 'response.completed':
        case 'response.incomplete': {
          const r = event.response;
          const reason = r?.incomplete_details?.reason;
          finishReason =
            reason === 'max_output_tokens'
              ? { unified: 'length', raw: reason }
              : reason === 'content_filter'
                ? { unified: 'content-filter', raw: reason }
                : reason
                  ? finishReasonOf(reason)
                  : called
                    ? { unified: 'tool-calls', raw: undefined }
                    : { unified: 'stop', raw: undefined };
          const u = r?.usage;
          if (u) usage = usageOf(u.input_tokens, u.output_tokens, u.input_tokens_details?.cached_tokens, u.output_tokens_details?.reasoning_tokens);
          break;
        }
        case 'response.failed':
          throw streamError(event.response?.error ?? 'The response failed');
        case 'error':
          throw streamError(event.error ?? event);
        default:
          break;
      }
    },
    end() {
      close();
      emit({ type: 'finish', finishReason, usage });
    },
  };
}
