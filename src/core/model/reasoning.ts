import type { CallOptions } from './wire/modelSpec';

/**
 * How much a model thinks before it answers. `default` sends nothing (the provider's own
 * default); the others are asked for on each request, in the form the model's API takes.
 */
export const reasoningChoices = ['default', 'off', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningChoice = (typeof reasoningChoices)[number];
export type ReasoningLevel = Exclude<ReasoningChoice, 'default'>;

/**
 * How a model is told: `effort` (OpenAI's `reasoning_effort`), `budget` (a thinking budget in
 * tokens: Anthropic, Bedrock's Claude, Gemini 2.5) or `level` (Gemini 3's `thinkingLevel`),
 * and the levels it accepts.
 */
export interface ReasoningSupport {
  style: 'effort' | 'budget' | 'level';
  levels: readonly ReasoningLevel[];
}

type ProviderOptions = NonNullable<CallOptions['providerOptions']>;

/** Thinking budgets in tokens; each fits every budget model's output limit (Gemini 2.5 Flash's 24,576 is the lowest). */
export const thinkingBudgets: Record<Exclude<ReasoningLevel, 'off'>, number> = { minimal: 1024, low: 2048, medium: 8192, high: 24_576 };

/**
 * The provider options that ask `support`'s model for `choice`, under every provider's name
 * (each provider reads its own): `openai` for Keel's OpenAI wires (Chat Completions and
 * Responses, Azure's too), `anthropic` (Anthropic and Claude on Vertex), `bedrock`, `google`
 * (Gemini and Vertex). Undefined for `default` or a level the model does not take.
 */
export function reasoningProviderOptions(support: ReasoningSupport | undefined, choice: ReasoningChoice | undefined): ProviderOptions | undefined {
  if (!support || choice === undefined || choice === 'default' || !support.levels.includes(choice)) return undefined;
  if (support.style === 'effort') return { openai: { reasoningEffort: choice === 'off' ? 'none' : choice } };
  if (support.style === 'level') return { google: { thinkingConfig: { thinkingLevel: choice } } };
  if (choice === 'off') {
    return { anthropic: { thinking: { type: 'disabled' } }, bedrock: { reasoningConfig: { type: 'disabled' } }, google: { thinkingConfig: { thinkingBudget: 0 } } };
  }
  const budgetTokens = thinkingBudgets[choice];
  return {
    anthropic: { thinking: { type: 'enabled', budgetTokens } },
    bedrock: { reasoningConfig: { type: 'enabled', budgetTokens } },
    google: { thinkingConfig: { thinkingBudget: budgetTokens } },
  };
}

/** The person's choice for a model: by `provider/model`, else by the bare model id. */
export function chosenReasoning(id: string, chosen: Readonly<Record<string, ReasoningChoice>>): ReasoningChoice {
  const bare = id.slice(id.lastIndexOf('/') + 1);
  return chosen[id] ?? chosen[bare] ?? 'default';
}

/** OpenAI's `reasoning_effort` the call asks for (see reasoningProviderOptions), if any. */
export function reasoningEffortOf(options: CallOptions): string | undefined {
  const effort = options.providerOptions?.openai?.reasoningEffort;
  return typeof effort === 'string' && effort !== '' ? effort : undefined;
}

/**
 * What every call of a run on `model` carries: the provider options for the person's reasoning
 * choice (`config.reasoning`), and the person's own output limit and temperature for the model.
 */
export function runCallSettings(
  model: { id: string; reasoning?: ReasoningSupport; settings?: { maxOutputTokens?: number; temperature?: number } },
  chosen: Readonly<Record<string, ReasoningChoice>>,
): { providerOptions?: ProviderOptions; maxOutputTokens?: number; temperature?: number } {
  const providerOptions = reasoningProviderOptions(model.reasoning, chosenReasoning(model.id, chosen));
  return { ...(providerOptions ? { providerOptions } : {}), ...model.settings };
}
