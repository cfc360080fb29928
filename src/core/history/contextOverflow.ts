import { APICallError } from 'ai';
import { causeChain } from '../causeChain';

/**
 * How providers say "the request is longer than the model's context window". Each entry
 * names who says it that way; the unit tests hold one real message per entry.
 */
export const contextOverflowPatterns: readonly { source: string; pattern: RegExp }[] = [
  { source: 'OpenAI, Azure, DeepSeek, vLLM, OpenRouter, Groq', pattern: /maximum context length/i },
  { source: 'OpenAI error code', pattern: /context_length_exceeded|context length exceeded/i },
  { source: 'Anthropic', pattern: /prompt is too long/i },
  { source: 'Anthropic (with max_tokens)', pattern: /exceeds? (the )?context limit/i },
  { source: 'Gemini', pattern: /exceeds the maximum number of tokens/i },
  { source: 'Gemini (token count)', pattern: /input token count.{0,40}exceeds/i },
  { source: 'Responses API, Ollama, LM Studio and others', pattern: /context window/i },
  { source: 'Cohere and others', pattern: /too many (input )?tokens/i },
  { source: 'OpenAI-compatible servers', pattern: /reduce the length of the (messages|input|prompt)/i },
  { source: 'llama.cpp', pattern: /exceeds? the available context size|context size (has been )?exceeded|exceed_context_size/i },
  { source: 'Ollama', pattern: /exceed(s|ed)? (the )?max(imum)? context length/i },
  { source: 'Mistral', pattern: /too large for model with \d+ maximum context length/i },
  { source: 'xAI, vLLM', pattern: /maximum (prompt|model|input) length/i },
  { source: 'vLLM (decoder prompt)', pattern: /longer than the maximum model length/i },
  { source: 'Text Generation Inference', pattern: /tokens \+ `?max_new_tokens`? must be <=/i },
  { source: 'AWS Bedrock', pattern: /input is too long|too many input tokens/i },
  { source: 'LM Studio', pattern: /context length of only \d+ tokens/i },
];

/** Rate and quota limits also talk about tokens; shortening the history is no answer to them. */
const notOverflow = /rate.?limit|per min|\bTPM\b|\bRPM\b|quota|per day/i;

/** Every text an error carries: message, the raw response body, a provider's error object. */
function texts(err: unknown): string[] {
  const out: string[] = [];
  for (const e of causeChain(err)) {
    if (typeof e === 'string') out.push(e);
    else if (e instanceof Error) out.push(e.message);
    if (APICallError.isInstance(e)) {
      if (e.responseBody) out.push(e.responseBody);
      if (e.statusCode === 429) return [];
    }
    if (e && typeof e === 'object' && !(e instanceof Error)) {
      try {
        out.push(JSON.stringify(e));
      } catch (jsonErr) {
        // A circular object cannot be stringified; its own string form is all there is to search.
        if (!(jsonErr instanceof TypeError)) throw jsonErr;
        out.push(String(e));
      }
    }
  }
  return out;
}

/** True when a model request failed because the conversation does not fit the model's context window. */
export function isContextOverflow(err: unknown): boolean {
  const all = texts(err);
  if (all.some((t) => notOverflow.test(t))) return false;
  return all.some((t) => contextOverflowPatterns.some((p) => p.pattern.test(t)));
}

/**
 * The window and the request's size when the message states them ("maximum context length
 * is 8192 tokens ... resulted in 9000 tokens", "208000 tokens > 200000 maximum"), so
 * recovery can cut about the right amount.
 */
export function overflowSize(err: unknown): { limit: number; actual: number } | undefined {
  for (const t of texts(err)) {
    const nums = (re: RegExp) => re.exec(t)?.slice(1).map((n) => Number(n.replace(/,/g, '')));
    const openAi = nums(/maximum context length is ([\d,]+) tokens[\s\S]{0,80}?(?:resulted in|requested(?: about)?) ([\d,]+) tokens/i);
    if (openAi) return { limit: openAi[0], actual: openAi[1] };
    const anthropic = nums(/([\d,]+) tokens > ([\d,]+) maximum/i);
    if (anthropic) return { limit: anthropic[1], actual: anthropic[0] };
    const gemini = nums(/input token count \(?([\d,]+)\)? exceeds the maximum number of tokens allowed \(?([\d,]+)\)?/i);
    if (gemini) return { limit: gemini[1], actual: gemini[0] };
  }
  return undefined;
}
