import type { McpOrigin } from './mcpConfig';

/** Who calls a tool: the model, or an MCP App of its server. */
export type McpToolCaller = 'model' | 'app';

/** `signin`: an HTTP server that waits for the person to sign in (VS Code shows "Sign in", not an error). */
export type McpServerState = 'starting' | 'ready' | 'failed' | 'disabled' | 'signin';

/** What the status list shows for one server. */
export interface McpServerStatus {
  name: string;
  origin: McpOrigin;
  transport: 'stdio' | 'http' | 'sse';
  state: McpServerState;
  tools: number;
  prompts: number;
  resources: number;
  /** Why it failed or is disabled. */
  reason?: string;
  /** The last lines the server wrote to stderr (stdio servers), newest last. */
  stderr?: string[];
}

/** A tool as the server describes it. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  /** The MCP App (`ui://` resource) its tool definition names, shown with its results where a host can. */
  appUri?: string;
  /** Who may call it (`_meta.ui.visibility`): absent, both the model and the server's apps. */
  visibility?: McpToolCaller[];
}

export interface McpPromptInfo {
  server: string;
  name: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
  /** The slash command, without the slash: `mcp.<server>.<prompt>`. */
  command: string;
}

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** A family of resources the server can read, named by an RFC 6570 URI template. */
export interface McpResourceTemplateInfo {
  server: string;
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** The latest progress a running call reported (`notifications/progress`). */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}
