import type { McpServerConfig } from './mcpConfig';
import type { Elicitor } from './mcpElicitation';
import type { McpOAuthHost } from './mcpOAuthProvider';
import type { ResultCaps } from './mcpResult';
import type { Sampler } from './mcpSampling';
import type { McpServerOptions } from './mcpServerOptions';

/** What a host gives its McpManager: where it runs, what it may ask the person, and how servers start. */
export interface McpManagerOptions {
  workspaceRoot: string;
  /** The host's environment: only PATH-like basics of it reach server processes. */
  env: Record<string, string | undefined>;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  /** MCP servers run only in a trusted workspace. */
  trusted: boolean;
  /** Per tool call; default 60 s. */
  toolTimeoutMs?: number;
  startTimeoutMs?: number;
  backoffMs?: readonly number[];
  resultCaps?: ResultCaps;
  /** Asked before a workspace server starts (and again when what it runs changed); false leaves it off. */
  approve?(server: McpServerConfig): Promise<boolean>;
  /** Servers the person turned off. */
  isDisabled?(name: string): boolean;
  version?: string;
  /** Answers servers' questions (elicitation); see McpServerOptions.elicit. */
  elicit?: Elicitor;
  /** Runs servers' sampling requests once approved; see McpServerOptions.sample. */
  sample?: Sampler;
  /** The host draws MCP Apps; see McpServerOptions.apps. */
  apps?: boolean;
  /** The folders offered to servers as roots; default the workspace root. `setRoots` changes them. */
  roots?: readonly string[];
  /** The OS sandbox for local servers (see McpServerOptions.sandboxStart); setSandbox replaces it. */
  sandboxStart?: McpServerOptions['sandboxStart'];
  /** Local servers wait for the first setSandbox (a host whose Context, which knows the setting, comes later). */
  waitForSandbox?: boolean;
  /** Signs in to HTTP servers that ask (see McpServerOptions.oauth); without it a 401 is reported as such. */
  oauth?: McpOAuthHost;
  /** Sends the person to sign in whenever a server of their own config asks (the CLI); otherwise only signIn(name) does. */
  signInWhenAsked?: boolean;
}
