import type { MessageMeta } from '../session/sessionRecords';
import type { ContextSection } from './contextTypes';
import { estimateTokens } from './tokenBudget';

interface ChangedResources {
  changedResources(mentioned: readonly { server: string; uri: string }[]): Promise<{ server: string; uri: string; text: string }[]>;
}

/**
 * The MCP resources this conversation's messages mentioned that changed since they were read
 * (the server told Keel, by its subscription), as context sections: like the rest of the
 * workspace context, one rides with the next message only when its text differs from what the
 * model was shown.
 */
export async function changedResourceSections(mcp: ChangedResources, history: readonly { meta?: MessageMeta }[]): Promise<ContextSection[]> {
  const mentioned = history.flatMap((m) => (m.meta?.mentions ?? []).flatMap((x) => (x.kind === 'resource' ? [{ server: x.server, uri: x.uri }] : [])));
  if (mentioned.length === 0) return [];
  return (await mcp.changedResources(mentioned)).map(({ server, uri, text }) => {
    const tokens = estimateTokens(text);
    return { id: `mcp-resource:${server}:${uri}`, title: `@${server}:${uri} (an MCP resource mentioned earlier; it changed since)`, text, tokens, budget: tokens, cut: false };
  });
}
