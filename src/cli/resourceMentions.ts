import type { Mention } from '../core/mentions/index';

/** Characters that end a sentence rather than a URI, when they close a mention. */
const trailing = /[.,;:!?)\]]+$/;

/**
 * The `@server:uri` words of a `keel run` prompt that name a configured MCP server, as
 * resource mentions (read from the server when the message is sent, like the composer's
 * chips). Words naming no such server stay plain text.
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
