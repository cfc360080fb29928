import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, SamplingMessageContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ImagePart, LanguageModel, ModelMessage, TextPart } from 'ai';
import type { ModelPrice } from '../config/configSchema';
import { errorMessage } from '../errors';
import { costOf } from '../model/modelCatalogue';
import { modelText } from '../model/modelText';

/**
 * Runs a server's `sampling/createMessage` on the person's model, if they approve it. `server`
 * names the server as configured. Throws (the server gets an error) when refused or impossible.
 */
export type Sampler = (server: string, params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;

/** Declared only when someone can approve and run requests. */
export const samplingCapability: ClientCapabilities = { sampling: {} };

/**
 * Hands the server's sampling requests to `sampler`; the SDK checks the request and the result.
 * `asking` is told a request waits for the person (and then the model), and returns what to call
 * once it is done: the running calls' timeouts stand still meanwhile.
 */
export function answerSampling(client: Client, server: string, sampler: Sampler, asking: () => () => void = () => () => undefined): void {
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const answered = asking();
    try {
      return await sampler(server, request.params, extra.signal);
    } finally {
      answered();
    }
  });
}

/** The request as a person reviews it: the server's system prompt, then each message as text. */
export function samplingText(params: CreateMessageRequestParams): string {
  const parts: string[] = [];
  if (params.systemPrompt) parts.push(`[system]\n${params.systemPrompt}`);
  for (const m of samplingMessages(params)) parts.push(`[${m.role}]\n${m.text}`);
  return parts.join('\n\n');
}

/** Each message of the request as text (an image or audio block as its type in brackets). */
export function samplingMessages(params: CreateMessageRequestParams): { role: 'user' | 'assistant'; text: string }[] {
  return params.messages.map((m) => ({ role: m.role, text: blocks(m.content).map(blockText).join('\n') }));
}

function blocks(content: SamplingMessageContentBlock | SamplingMessageContentBlock[]): SamplingMessageContentBlock[] {
  return Array.isArray(content) ? content : [content];
}

function blockText(b: SamplingMessageContentBlock): string {
  return b.type === 'text' ? b.text : `(${b.type})`;
}

/** The most a server may ask the person's model to write. */
const maxSampleTokens = 4_000;

/**
 * Runs the request on `model` (text and images; tool use is not offered to servers) and answers
 * as the protocol says. `lastUserText` replaces the last user message's text when the person
 * edited it before approving.
 */
export async function sampleWith(model: LanguageModel, modelId: string, params: CreateMessageRequestParams, signal: AbortSignal, lastUserText?: string): Promise<CreateMessageResult & { usage: { inputTokens: number; outputTokens: number } }> {
  const messages: ModelMessage[] = params.messages.map((m): ModelMessage => {
    const content: (TextPart | ImagePart)[] = blocks(m.content).map((b) => {
      if (b.type === 'text') return { type: 'text', text: b.text };
      if (b.type === 'image' && m.role === 'user') return { type: 'image', image: b.data, mediaType: b.mimeType };
      throw new Error(`Keel runs sampling requests with text and images only (got ${b.type})`);
    });
    return m.role === 'user' ? { role: 'user', content } : { role: 'assistant', content: content.filter((c): c is TextPart => c.type === 'text') };
  });
  if (lastUserText !== undefined) {
    const last = [...messages].reverse().find((m) => m.role === 'user');
    if (last) last.content = [{ type: 'text', text: lastUserText }];
  }
  const result = await modelText(model, {
    system: params.systemPrompt ?? '',
    messages,
    maxOutputTokens: Math.min(params.maxTokens, maxSampleTokens),
    signal,
  });
  return { role: 'assistant', content: { type: 'text', text: result.text }, model: modelId, stopReason: 'endTurn', usage: result.usage };
}

/** The person's model, as a request runs on it; its price, when known, prices what the request used. */
export interface SamplingModel {
  id: string;
  model: LanguageModel;
  price?: ModelPrice;
}

/** What came of an approved request: the tokens it used, or why it failed. */
export type SamplingOutcome = { usage: { inputTokens: number; outputTokens: number; costUsd?: number } } | { error: string };

/**
 * The person's verdict on a sampling request: run it (with the last user message as edited), or
 * not. `ran` hears what came of an approved one (the card that asked shows it and counts its tokens).
 */
export type SamplingVerdict = { run: true; lastUserText?: string; ran?(outcome: SamplingOutcome): void } | { run: false };

/**
 * A Sampler that shows each request to the person (`approve`) and runs an approved one on the
 * model `resolve` gives (the person's configured model, looked up when the request comes).
 * A refused request reaches the server as an error saying so. `counted` hears the tokens used.
 */
export function approvedSampler(
  approve: (server: string, request: string, modelId: string, params: CreateMessageRequestParams, signal: AbortSignal) => Promise<SamplingVerdict>,
  resolve: () => SamplingModel | Promise<SamplingModel>,
  counted?: (server: string, usage: { inputTokens: number; outputTokens: number }) => void,
): Sampler {
  let queue: Promise<unknown> = Promise.resolve();
  return (server, params, signal) => {
    const turn = queue.then(async () => {
      const target = await resolve();
      const verdict = await approve(server, samplingText(params), target.id, params, signal);
      if (!verdict.run) throw new Error('The person declined to run this request on their model');
      let sampled: Awaited<ReturnType<typeof sampleWith>>;
      try {
        sampled = await sampleWith(target.model, target.id, params, signal, verdict.lastUserText);
      } catch (err) {
        verdict.ran?.({ error: errorMessage(err) });
        throw err;
      }
      const { usage, ...result } = sampled;
      counted?.(server, usage);
      verdict.ran?.({ usage: target.price ? { ...usage, costUsd: costOf(usage, target.price) } : usage });
      return result;
    });
    queue = turn.catch(() => undefined);
    return turn;
  };
}

/** The text of the request's last user message (what a person may edit before it runs); undefined when it has none. */
export function lastUserText(params: CreateMessageRequestParams): string | undefined {
  const last = [...params.messages].reverse().find((m) => m.role === 'user');
  if (!last) return undefined;
  const texts = blocks(last.content).filter((b) => b.type === 'text');
  return texts.length ? texts.map((b) => (b.type === 'text' ? b.text : '')).join('\n') : undefined;
}
