import type { UserContent } from 'ai';

/** The user message's content with the expanded mentions as one more text part at the end. */
export function attachMentions(content: UserContent, expansion: string): UserContent {
  if (expansion === '') return content;
  const parts: Exclude<UserContent, string> = typeof content === 'string' ? (content.trim() === '' ? [] : [{ type: 'text', text: content }]) : [...content];
  parts.push({ type: 'text', text: expansion });
  return parts;
}
