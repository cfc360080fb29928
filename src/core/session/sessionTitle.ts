import type { LanguageModel } from 'ai';
import { modelText } from '../model/modelText';

const TITLE_INSTRUCTIONS =
  'You name conversations. Reply with a title of at most 6 words for the conversation below: ' +
  'plain text, no quotes, no trailing punctuation, in the language of the request.';

/** Enough of the exchange for a title; the rest costs tokens and adds nothing. */
const EXCERPT_CHARS = 1500;

/**
 * A short title for a conversation from its first prompt and the first reply, by the small
 * model. Returns undefined when the model gave nothing usable (the first prompt stays the title).
 */
export async function generateTitle(model: LanguageModel, prompt: string, reply: string, signal?: AbortSignal): Promise<string | undefined> {
  const result = await modelText(model, {
    system: TITLE_INSTRUCTIONS,
    messages: [{ role: 'user', content: `Request:\n${prompt.slice(0, EXCERPT_CHARS)}\n\nAnswer:\n${reply.slice(0, EXCERPT_CHARS)}` }],
    maxOutputTokens: 30,
    ...(signal ? { signal } : {}),
  });
  return cleanTitle(result.text);
}

/** The first non-empty line, without quotes, markdown marks or a "Title:" label; at most 80 characters. */
export function cleanTitle(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!line) return undefined;
  const cleaned = line
    .replace(/^(#+\s*|title:\s*)/i, '')
    .replace(/^["'`*_“”‘’]+|["'`*_“”‘’]+$/g, '')
    .replace(/[.。]+$/, '')
    .trim();
  if (cleaned === '') return undefined;
  return Array.from(cleaned).slice(0, 80).join('');
}
