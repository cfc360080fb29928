import type { Mention } from '../protocol/uiMessage';

/**
 * @-mentions reach the model as one extra text part of the user message, in a fixed format
 * this module both writes and recognises, so a resumed conversation shows them as mentions
 * again instead of as text.
 */
const HEADER = 'Files and folders the person mentioned (read them as needed):';
const LINE = /^- (file|folder) (.+?)(?: \(lines (\d+)-(\d+)\))?$/;

export function formatMentions(mentions: readonly Mention[]): string {
  const lines = mentions.map((m) => {
    const range = m.range ? ` (lines ${m.range.startLine}-${m.range.endLine})` : '';
    return `- ${m.kind} ${m.path}${range}`;
  });
  return [HEADER, ...lines].join('\n');
}

/** The mentions a text part written by formatMentions holds; undefined for any other text. */
export function parseMentions(text: string): Mention[] | undefined {
  const [first, ...rest] = text.split('\n');
  if (first !== HEADER || rest.length === 0) return undefined;
  const mentions: Mention[] = [];
  for (const line of rest) {
    const match = LINE.exec(line);
    if (!match) return undefined;
    const [, kind, path, start, end] = match;
    const mention: Mention = { kind: kind === 'folder' ? 'folder' : 'file', path: path! };
    if (start !== undefined && end !== undefined) {
      mention.range = { startLine: Number(start), endLine: Number(end) };
    }
    mentions.push(mention);
  }
  return mentions;
}
