import type { Mention } from './mentionTypes';

/** Characters that end a sentence rather than a URI, when they close a mention. */
const trailing = /[.,;:!?)\]]+$/;

/**
 * The `@server:uri` words of a message (a `keel run` prompt, a message typed in the chat) that
 * name a configured MCP server, as resource mentions (read from the server when the message
 * is sent). Words naming no such server stay plain text.
 */
export function resourceMentions(prompt: string, servers: readonly string[]): Mention[] {
  const out: Mention[] = [];
  for (const match of prompt.matchAll(/(?:^|\s)@([^\s:@]+):(\S+)/g)) {
    const server = match[1] ?? '';
    const uri = (match[2] ?? '').replace(trailing, '');
    if (!servers.includes(server) || uri === '') continue;
    if (!out.some((m) => m.kind === 'resource' && m.server === server && m.uri === uri)) out.push({ kind: 'resource', server, uri });
  }
  return out;
}

/** The mentions a message came with, plus the `@server:uri` words of its text not among them. */
export function withResourceMentions(text: string, mentions: readonly Mention[], servers: readonly string[]): Mention[] {
  const typed = resourceMentions(text, servers).filter((t) => !mentions.some((m) => m.kind === 'resource' && t.kind === 'resource' && m.server === t.server && m.uri === t.uri));
  return [...mentions, ...typed];
}
