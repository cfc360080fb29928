import type { McpToolCaller } from './mcpTypes';

// MCP Apps (the `io.modelcontextprotocol/ui` extension, `@modelcontextprotocol/ext-apps`):
// a tool names a `ui://` resource, an HTML page the host shows with the tool's results.

/** The extension's id in the client's `capabilities.extensions`. */
export const uiExtensionId = 'io.modelcontextprotocol/ui';
/** The media type of an app's HTML. */
export const appMimeType = 'text/html;profile=mcp-app';

/** What Keel declares when its host draws apps: servers may then offer their app-enhanced tools. */
export const appsCapability = { extensions: { [uiExtensionId]: { mimeTypes: [appMimeType] } } };

const maxUriLength = 2000;

/**
 * The `ui://` resource a tool definition's or a tool result's `_meta` names: `_meta.ui.resourceUri`,
 * or the older flat key `ui/resourceUri`. Anything else (another scheme, not a string) is no app.
 */
export function mcpAppUri(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const ui = isRecord(meta.ui) ? meta.ui.resourceUri : undefined;
  const uri = typeof ui === 'string' ? ui : meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= maxUriLength ? uri : undefined;
}

/** `_meta.ui.visibility`: who may call the tool; nothing readable means both. */
export function toolVisibility(meta: unknown): McpToolCaller[] | undefined {
  const ui = isRecord(meta) && isRecord(meta.ui) ? meta.ui : undefined;
  if (!ui || !Array.isArray(ui.visibility)) return undefined;
  const callers = (['model', 'app'] as const).filter((c) => (ui.visibility as unknown[]).includes(c));
  return callers.length ? [...callers] : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
