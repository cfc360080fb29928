import type { CallOptions, Prompt } from './modelSpec';

type ProviderOptions = NonNullable<Prompt[number]['providerOptions']>;

/**
 * Where Keel asks a provider with explicit prompt caching (Anthropic's `cache_control`) to cache:
 * the end of the system prompt (which covers the tool definitions before it), the end of the
 * previous request (the last user or tool message before the newest assistant message, so the
 * cache written last time is read even past the provider's look-back window), and the newest
 * message (the conversation's moving end, written for the next request). Three breakpoints; the
 * API allows four. Requests are append-only, so each request's prefix is the previous one.
 */
export function cacheBreakpointIndexes(prompt: Prompt): number[] {
  const out = new Set<number>();
  let lastSystem = -1;
  for (let i = 0; i < prompt.length; i++) if (prompt[i].role === 'system') lastSystem = i;
  if (lastSystem >= 0) out.add(lastSystem);
  const last = prompt.length - 1;
  if (last > lastSystem) out.add(last);
  let i = last - 1;
  while (i > lastSystem && prompt[i].role !== 'assistant') i--;
  while (i > lastSystem && prompt[i].role === 'assistant') i--;
  if (i > lastSystem && i < last) out.add(i);
  return [...out].sort((a, b) => a - b);
}

/** The call with the breakpoints marked for `provider` (its providerOptions name), nothing else changed. */
export function withCacheBreakpoints(options: CallOptions, provider: string, mark: ProviderOptions[string]): CallOptions {
  const at = new Set(cacheBreakpointIndexes(options.prompt));
  if (at.size === 0) return options;
  const prompt = options.prompt.map((message, i) => {
    if (!at.has(i)) return message;
    const providerOptions: ProviderOptions = { ...message.providerOptions, [provider]: { ...message.providerOptions?.[provider], ...mark } };
    return { ...message, providerOptions };
  }) as Prompt;
  return { ...options, prompt };
}
