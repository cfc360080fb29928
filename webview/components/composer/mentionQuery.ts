/** An @-query being typed: from the '@' to the caret. */
export interface MentionQuery {
  /** Index of the '@'. */
  start: number;
  query: string;
}

/**
 * The @-query the caret is in, if any. The '@' must start the text or follow white
 * space (so e-mail addresses do not open the popup), and the query has no spaces.
 */
export function findMentionQuery(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return null;
  const query = match[1] ?? '';
  return { start: caret - query.length - 1, query };
}

/** Replaces the @-query with `@path ` and puts the caret after it. */
export function insertMention(text: string, at: MentionQuery, path: string): { text: string; caret: number } {
  const end = at.start + 1 + at.query.length;
  const inserted = `@${path} `;
  const rest = text.slice(end).replace(/^ /, '');
  return { text: text.slice(0, at.start) + inserted + rest, caret: at.start + inserted.length };
}
