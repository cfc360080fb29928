import type { ModelMessage } from 'ai';
import { isContextBlock } from './llmsContext/contextBlock';
import { mentionsHeader } from './mentions/mentionBlock';

/** What fills the context window, in tokens (see `contextPartsSchema` in src/protocol/messageUsage.ts). */
export interface ContextParts {
  system: number;
  rules: number;
  workspace: number;
  mentions: number;
  history: number;
  toolResults: number;
}

export type ContextPartName = keyof ContextParts;

const partNames: readonly ContextPartName[] = ['system', 'rules', 'workspace', 'mentions', 'history', 'toolResults'];

/** About what an image costs a provider, in characters of the estimate (~1,600 tokens). */
const imageChars = 6_400;

const rulesBlock = /<rules_in_effect>[\s\S]*?<\/rules_in_effect>/g;

/** The request a model call got: its system prompt, its tools' definitions and its messages. */
export interface RequestShape {
  system: string;
  /** The tool definitions as sent (their JSON). */
  tools: unknown;
  messages: readonly ModelMessage[];
}

/**
 * What each part of a request weighs, in characters: the system prompt and tools; the workspace
 * context a user message carries, its rules apart; what @-mentions and attachments added; tool
 * results; and the rest of the conversation.
 */
export function requestWeights(request: RequestShape): ContextParts {
  const w: ContextParts = { system: request.system.length + JSON.stringify(request.tools).length, rules: 0, workspace: 0, mentions: 0, history: 0, toolResults: 0 };
  for (const message of request.messages) {
    const m = messageWeights(message);
    for (const name of partNames) w[name] += m[name] ?? 0;
  }
  return w;
}

/** The session's messages are shared and never changed, so each is weighed once. */
const weighed = new WeakMap<ModelMessage, Partial<ContextParts>>();

function messageWeights(message: ModelMessage): Partial<ContextParts> {
  let w = weighed.get(message);
  if (w) return w;
  w = {};
  if (message.role === 'tool') w.toolResults = JSON.stringify(message.content).length;
  else if (message.role !== 'user' || typeof message.content === 'string') w.history = sizeOf(message.content);
  else {
    const add = (name: ContextPartName, n: number) => (w![name] = (w![name] ?? 0) + n);
    for (const part of message.content) {
      if (part.type === 'image' || part.type === 'file') add('mentions', imageChars);
      else if (isContextBlock(part.text)) {
        const rules = [...part.text.matchAll(rulesBlock)].reduce((n, m) => n + m[0].length, 0);
        add('rules', rules);
        add('workspace', part.text.length - rules);
      } else if (part.text.startsWith(mentionsHeader)) add('mentions', part.text.length);
      else add('history', part.text.length);
    }
  }
  weighed.set(message, w);
  return w;
}

/**
 * The window's parts in tokens, adding up to exactly what the meter counts: the request's
 * input tokens as the provider measured them, shared by weight (largest remainders get the
 * odd tokens), and the answer's output tokens, which the next request carries as history.
 */
export function contextParts(weights: ContextParts, inputTokens: number, outputTokens: number): ContextParts {
  const out: ContextParts = { system: 0, rules: 0, workspace: 0, mentions: 0, history: outputTokens, toolResults: 0 };
  const total = partNames.reduce((n, name) => n + weights[name], 0);
  if (total === 0) {
    out.history += inputTokens;
    return out;
  }
  const shares = partNames.map((name) => ({ name, exact: (weights[name] * inputTokens) / total }));
  let left = inputTokens;
  for (const share of shares) {
    const whole = Math.floor(share.exact);
    out[share.name] += whole;
    left -= whole;
  }
  shares.sort((a, b) => b.exact - Math.floor(b.exact) - (a.exact - Math.floor(a.exact)));
  for (let i = 0; i < left; i++) out[shares[i % shares.length]!.name] += 1;
  return out;
}

function sizeOf(content: unknown): number {
  return typeof content === 'string' ? content.length : JSON.stringify(content).length;
}
