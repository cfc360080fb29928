import type { PathMention } from '../../protocol/uiMessage';

/**
 * Builds before the core expanded mentions itself sent them to the model as one extra text
 * part listing the files and folders; sessions saved then still hold it, and a resumed
 * conversation shows those as mentions again instead of as text.
 */
const HEADER = 'Files and folders the person mentioned (read them as needed):';
const LINE = /^- (file|folder) (.+?)(?: \(lines (\d+)-(\d+)\))?$/;

/** The mentions such a text part holds; undefined for any other text. */
export function parseMentions(text: string): PathMention[] | undefined {
  const [first, ...rest] = text.split('\n');
  if (first !== HEADER || rest.length === 0) return undefined;
  const mentions: PathMention[] = [];
  for (const line of rest) {
    const match = LINE.exec(line);
    if (!match) return undefined;
    const [, kind, path, start, end] = match;
    const mention: PathMention = { kind: kind === 'folder' ? 'folder' : 'file', path: path! };
    if (start !== undefined && end !== undefined) {
      mention.range = { startLine: Number(start), endLine: Number(end) };
    }
    mentions.push(mention);
  }
  return mentions;
}
