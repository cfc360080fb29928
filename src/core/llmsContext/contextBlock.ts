/** First line of the context block a user message carries; how readers recognise it. */
export const contextHeader = 'What Keel gathered about the workspace as this message was sent (look again when it matters):';
export const updateHeader = 'What changed in the workspace since Keel last showed it (sections not listed are as shown before):';

/** True for the text part that carries the workspace context (a view shows the person's words instead). */
export function isContextBlock(text: string): boolean {
  return text.startsWith(`${contextHeader}\n`) || text.startsWith(`${updateHeader}\n`);
}
