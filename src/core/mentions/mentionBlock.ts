import type { Mention } from './mentionTypes';

/** First line of the text part that carries expanded mentions; how readers recognise it. */
export const mentionsHeader = 'Context the person attached with @-mentions (already expanded; no need to read these again unless they change):';

export function mentionLabel(m: Mention): string {
  switch (m.kind) {
    case 'file':
      return `@${m.path}${m.range ? `:${m.range.startLine}-${m.range.endLine}` : ''}`;
    case 'folder':
      return `@${m.path.replace(/\/+$/, '')}/`;
    case 'url':
      return `@${m.url}`;
    case 'resource':
      return `@${m.server}:${m.uri}`;
    case 'git':
      return m.base ? `@git:${m.base}...HEAD` : '@git';
    default:
      return `@${m.kind}`;
  }
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** One mention as the model sees it: a tagged block naming what it is. */
export function mentionBlock(m: Mention, body: string): string {
  const attrs = [`kind="${m.kind}"`];
  if (m.kind === 'file' || m.kind === 'folder') attrs.push(`path="${attr(m.path)}"`);
  if (m.kind === 'file' && m.range) attrs.push(`lines="${m.range.startLine}-${m.range.endLine}"`);
  if (m.kind === 'url') attrs.push(`url="${attr(m.url)}"`);
  if (m.kind === 'resource') attrs.push(`server="${attr(m.server)}"`, `uri="${attr(m.uri)}"`);
  return `<mention ${attrs.join(' ')}>\n${body}\n</mention>`;
}

/** True for the text part written by expandMentions (so a view can show chips instead). */
export function isMentionExpansion(text: string): boolean {
  return text.startsWith(`${mentionsHeader}\n`);
}
