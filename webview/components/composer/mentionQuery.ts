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

/**
 * Replaces the @-query with `@value ` and puts the caret after it. `open` leaves out the
 * space, so the caret stays in the @-query (to type an address after `@https://`).
 */
export function insertMention(text: string, at: MentionQuery, value: string, opts: { open?: boolean } = {}): { text: string; caret: number } {
  const end = at.start + 1 + at.query.length;
  const inserted = opts.open ? `@${value}` : `@${value} `;
  const rest = opts.open ? text.slice(end) : text.slice(end).replace(/^ /, '');
  return { text: text.slice(0, at.start) + inserted + rest, caret: at.start + inserted.length };
}
