import type { ModelPrice } from '../config/configSchema';
import type { ReasoningSupport } from './reasoning';
import type { TokenUsage } from './tokenUsage';

/** What Keel knows of a model without asking anyone: limits and list prices (USD per million tokens). */
export interface CatalogueEntry {
  contextWindow: number;
  maxOutputTokens: number;
  images: boolean;
  price: ModelPrice;
  /** How its reasoning is asked for, and the levels it takes; absent when it has none to choose. */
  reasoning?: ReasoningSupport;
}

const entry = (contextWindow: number, maxOutputTokens: number, images: boolean, price: ModelPrice, reasoning?: ReasoningSupport): CatalogueEntry => ({
  contextWindow,
  maxOutputTokens,
  images,
  price,
  ...(reasoning ? { reasoning } : {}),
});

// Anthropic's models think only when asked (so `default` is no thinking); Gemini 2.5 Pro cannot
// stop thinking, Flash can (a budget of 0); GPT-5 has `minimal`, the o-series starts at `low`.
const claudeThinking: ReasoningSupport = { style: 'budget', levels: ['low', 'medium', 'high'] };
const gptEffort: ReasoningSupport = { style: 'effort', levels: ['minimal', 'low', 'medium', 'high'] };
const oEffort: ReasoningSupport = { style: 'effort', levels: ['low', 'medium', 'high'] };
const geminiProBudget: ReasoningSupport = { style: 'budget', levels: ['low', 'medium', 'high'] };
const geminiFlashBudget: ReasoningSupport = { style: 'budget', levels: ['off', 'low', 'medium', 'high'] };
const gemini3Level: ReasoningSupport = { style: 'level', levels: ['low', 'high'] };

/**
 * Common models by id; a dated id (`claude-sonnet-4-5-20250929`) or `-latest` is its family. Prices are the providers' list prices for
 * standard requests; Anthropic's cache writes are the five-minute ones. The person's `prices`
 * override these; a model that is not here has an unknown price, never a guessed one.
 */
const catalogue: Record<string, CatalogueEntry> = {
  'claude-opus-4-5': entry(200_000, 64_000, true, { input: 5, cachedInput: 0.5, cacheWrite: 6.25, output: 25 }, claudeThinking),
  'claude-opus-4-1': entry(200_000, 32_000, true, { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 }, claudeThinking),
  'claude-opus-4': entry(200_000, 32_000, true, { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 }, claudeThinking),
  'claude-sonnet-4-5': entry(200_000, 64_000, true, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }, claudeThinking),
  'claude-sonnet-4': entry(200_000, 64_000, true, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }, claudeThinking),
  'claude-3-7-sonnet': entry(200_000, 64_000, true, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }, claudeThinking),
  'claude-haiku-4-5': entry(200_000, 64_000, true, { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 5 }, claudeThinking),
  'claude-3-5-haiku': entry(200_000, 8_192, true, { input: 0.8, cachedInput: 0.08, cacheWrite: 1, output: 4 }),
  'gpt-5': entry(400_000, 128_000, true, { input: 1.25, cachedInput: 0.125, output: 10 }, gptEffort),
  'gpt-5-mini': entry(400_000, 128_000, true, { input: 0.25, cachedInput: 0.025, output: 2 }, gptEffort),
  'gpt-5-nano': entry(400_000, 128_000, true, { input: 0.05, cachedInput: 0.005, output: 0.4 }, gptEffort),
  'gpt-4.1': entry(1_047_576, 32_768, true, { input: 2, cachedInput: 0.5, output: 8 }),
  'gpt-4.1-mini': entry(1_047_576, 32_768, true, { input: 0.4, cachedInput: 0.1, output: 1.6 }),
  'gpt-4.1-nano': entry(1_047_576, 32_768, true, { input: 0.1, cachedInput: 0.025, output: 0.4 }),
  'gpt-4o': entry(128_000, 16_384, true, { input: 2.5, cachedInput: 1.25, output: 10 }),
  'gpt-4o-mini': entry(128_000, 16_384, true, { input: 0.15, cachedInput: 0.075, output: 0.6 }),
  o3: entry(200_000, 100_000, true, { input: 2, cachedInput: 0.5, output: 8 }, oEffort),
  'o4-mini': entry(200_000, 100_000, true, { input: 1.1, cachedInput: 0.275, output: 4.4 }, oEffort),
  // Gemini's prices for prompts up to 200k tokens (longer ones cost more); cache reads are implicit-cache hits.
  'gemini-3-pro-preview': entry(1_048_576, 65_536, true, { input: 2, cachedInput: 0.2, output: 12 }, gemini3Level),
  'gemini-2.5-pro': entry(1_048_576, 65_536, true, { input: 1.25, cachedInput: 0.125, output: 10 }, geminiProBudget),
  'gemini-2.5-flash': entry(1_048_576, 65_536, true, { input: 0.3, cachedInput: 0.03, output: 2.5 }, geminiFlashBudget),
  'gemini-2.5-flash-lite': entry(1_048_576, 65_536, true, { input: 0.1, cachedInput: 0.01, output: 0.4 }, geminiFlashBudget),
  'gemini-2.0-flash': entry(1_048_576, 8_192, true, { input: 0.1, cachedInput: 0.025, output: 0.4 }),
  'deepseek-chat': entry(128_000, 8_192, false, { input: 0.28, cachedInput: 0.028, output: 0.42 }),
  'deepseek-reasoner': entry(128_000, 65_536, false, { input: 0.28, cachedInput: 0.028, output: 0.42 }),
};

/**
 * A model id as the catalogue knows it: Bedrock's `us.anthropic.claude-sonnet-4-5-20250929-v1:0`
 * (a cross-region prefix, the vendor, a version suffix) and Vertex's `claude-sonnet-4-5@20250929`
 * are the same model as Anthropic's `claude-sonnet-4-5-20250929`.
 */
function catalogueId(modelId: string): string {
  return modelId
    .slice(modelId.lastIndexOf('/') + 1)
    .toLowerCase()
    .replace(/^(?:(?:us|eu|apac|jp|au|global)\.)?(?:anthropic|amazon|meta|mistral|deepseek|openai)\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/@(\d{8}|latest)$/, '-$1');
}

/** The catalogue's entry for a model id (`provider/…/model` or bare), or undefined. */
export function catalogueEntry(modelId: string): CatalogueEntry | undefined {
  const bare = catalogueId(modelId);
  // The family itself, or it with a date or `latest`: `o3-pro` is not `o3`, and has no price here.
  const family = /^(.*?)(?:-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest))?$/.exec(bare)?.[1] ?? bare;
  return catalogue[bare] ?? catalogue[family];
}

/** A model's price: the person's for `provider/model`, else theirs for the bare id, else the catalogue's. */
export function modelPrice(ref: string, personal: Record<string, ModelPrice>): ModelPrice | undefined {
  const bare = ref.slice(ref.lastIndexOf('/') + 1);
  return personal[ref] ?? personal[bare] ?? catalogueEntry(ref)?.price;
}

/** What `usage` costs at `price`, in US dollars: uncached input, cache reads and writes, output. */
export function costOf(usage: TokenUsage, price: ModelPrice): number {
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - cached - written);
  const dollars = fresh * price.input + cached * (price.cachedInput ?? price.input) + written * (price.cacheWrite ?? price.input) + usage.outputTokens * price.output;
  return dollars / 1_000_000;
}
