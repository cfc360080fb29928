import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../errors';

interface Changed {
  /** A change came that the text below does not have yet. */
  dirty: boolean;
  /** Counts the server's updates, so a read that overlapped a newer one leaves it dirty. */
  version: number;
  text?: string;
}

/**
 * The resources of one server that a conversation mentioned and Keel subscribed to (where the
 * server offers subscriptions), and which of them changed since: a changed one is read again
 * before the next request that carries it (`dirty`), not at every request.
 */
export class ResourceSubscriptions {
  private readonly watched = new Set<string>();
  private readonly changedUris = new Map<string, Changed>();

  constructor(
    private readonly log: (line: string) => void,
    private readonly onChange: () => void,
  ) {}

  /** On a new connection: hears the server's updates, and subscribes again to what was watched (a restart forgets them). */
  attach(client: Client, current: () => boolean): void {
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      const uri = n.params.uri;
      if (!current() || !this.watched.has(uri)) return;
      const before = this.changedUris.get(uri);
      this.changedUris.set(uri, { text: before?.text, dirty: true, version: (before?.version ?? 0) + 1 });
      this.onChange();
    });
  }

  /** Subscribes again on a fresh connection; one that fails is logged, the rest go on. */
  async resubscribe(client: Client): Promise<void> {
    for (const uri of this.watched) await this.subscribe(client, uri);
  }

  /** Subscribes to a resource the server offers subscriptions for; false when it does not. */
  async watch(client: Client, uri: string): Promise<boolean> {
    if (this.watched.has(uri)) return true;
    if (client.getServerCapabilities()?.resources?.subscribe !== true) return false;
    this.watched.add(uri);
    await this.subscribe(client, uri);
    return true;
  }

  /** Whether the resource changed since it was first read: its text as last read again, and whether a newer change came since. */
  changed(uri: string): Readonly<Changed> | undefined {
    return this.changedUris.get(uri);
  }

  /** The text read again as of update `version`; a newer update since keeps it dirty. */
  markRead(uri: string, text: string, version: number): void {
    const entry = this.changedUris.get(uri);
    if (entry) this.changedUris.set(uri, { dirty: entry.version !== version, version: entry.version, text });
  }

  private async subscribe(client: Client, uri: string): Promise<void> {
    try {
      await client.subscribeResource({ uri });
    } catch (err) {
      this.log(`[keel] could not subscribe to ${uri}: ${errorMessage(err)}`);
    }
  }
}

/** See McpManager.changedResources. */
export async function changedResourceTexts(
  mentioned: readonly { server: string; uri: string }[],
  subscriptionsOf: (server: string) => ResourceSubscriptions | undefined,
  read: (server: string, uri: string) => Promise<string>,
): Promise<{ server: string; uri: string; text: string }[]> {
  const out: { server: string; uri: string; text: string }[] = [];
  const seen = new Set<string>();
  for (const { server, uri } of mentioned) {
    const subs = subscriptionsOf(server);
    const changed = subs?.changed(uri);
    if (!subs || !changed || seen.has(`${server}\u0000${uri}`)) continue;
    seen.add(`${server}\u0000${uri}`);
    let text = changed.text;
    if (changed.dirty || text === undefined) {
      const version = changed.version;
      try {
        text = await read(server, uri);
      } catch (err) {
        text = `(it changed, but could not be read again: ${errorMessage(err)})`;
      }
      subs.markRead(uri, text, version);
    }
    out.push({ server, uri, text });
  }
  return out;
}
