import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '../errors';

/** What Keel offers a server besides calling it: the workspace folders as roots (and says when they change). */
export const keelClientCapabilities: ClientCapabilities = { roots: { listChanged: true } };

/** The workspace folders as MCP roots: `file://` URIs named by their folder. */
export function mcpRoots(folders: readonly string[]): { uri: string; name: string }[] {
  return folders.map((path) => ({ uri: pathToFileURL(path).href, name: basename(path) || path }));
}

/**
 * Answers what a server asks of Keel: `roots/list` with the current folders, and puts the
 * server's log messages (`notifications/message`) into that server's log.
 */
export function handleServerRequests(client: Client, opts: { roots(): readonly string[]; log(line: string): void }): void {
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: mcpRoots(opts.roots()) }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    const { level, logger, data } = n.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    opts.log(`[${level}]${logger ? ` ${logger}:` : ''} ${text}`);
  });
}

/** The level Keel asks servers that log to send from: info and above reach the server's log. */
export const mcpLogLevel = 'info';

/** Asks a server that offers logging for its messages from `mcpLogLevel` up; a refusal is noted, not fatal. */
export async function askForLogs(client: Client, note: (line: string) => void): Promise<void> {
  if (!client.getServerCapabilities()?.logging) return;
  try {
    await client.setLoggingLevel(mcpLogLevel);
  } catch (err) {
    note(`[keel] logging/setLevel failed: ${errorMessage(err)}`);
  }
}
