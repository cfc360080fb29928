import type { McpCallResult } from '../../core/tools';

/** A tool call whose app the card shows: what the app is told when it opens. */
export interface ShownApp {
  server: string;
  uri: string;
  /** The server's own name of the tool that ran. */
  tool: string;
  input: Record<string, unknown>;
  /** The server's `CallToolResult`. */
  result: Record<string, unknown>;
}

/** Apps kept per conversation; the oldest go first (their cards then show the text result). */
const maxApps = 100;

/**
 * The apps of the tool calls this conversation ran live and showed on their cards, by tool call
 * id. Only these open, and only these may call tools: an app appears only for a call the person
 * saw, from a server that was running (so approved) when it ran.
 */
export class McpAppBook {
  private readonly apps = new Map<string, ShownApp>();

  /** The app of a finished MCP call, when its tool or result named one. */
  add(toolCallId: string, call: McpCallResult, input: unknown): ShownApp | undefined {
    if (!call.appUri) return undefined;
    const app: ShownApp = {
      server: call.server,
      uri: call.appUri,
      tool: call.tool,
      input: typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {},
      result: call.result,
    };
    this.apps.delete(toolCallId);
    this.apps.set(toolCallId, app);
    if (this.apps.size > maxApps) this.apps.delete(this.apps.keys().next().value as string);
    return app;
  }

  get(toolCallId: string): ShownApp | undefined {
    return this.apps.get(toolCallId);
  }
}
