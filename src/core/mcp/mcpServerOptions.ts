import type { ChildEnvPolicy } from '../env/childEnv';
import type { SandboxedStart } from '../sandbox/sandboxTypes';
import type { McpServerConfig } from './mcpConfig';
import type { Elicitor } from './mcpElicitation';
import type { McpOAuthHost } from './mcpOAuthProvider';
import type { Sampler } from './mcpSampling';

/** What one McpServer is given: its config, where it runs, and what it may ask of the host. */
export interface McpServerOptions {
  config: McpServerConfig;
  workspaceRoot: string;
  env: Record<string, string | undefined>;
  /** Connecting and listing must finish within this, or the start failed. */
  startTimeoutMs: number;
  /** Delays before each restart after a crash or a failed start; after the last one the server stays failed. */
  backoffMs: readonly number[];
  onChange(): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  version: string;
  /** The workspace folders (and added folders), offered to the server as its roots. */
  roots(): readonly string[];
  /** What a local server inherits of `env` besides the built-in allow-list (the person's `shellEnv.allow`). */
  envPolicy?(): ChildEnvPolicy;
  /** Prepares the OS sandbox a local server runs in; undefined: it runs without one; throws: it must not run. */
  sandboxStart?(cwd: string, visible: readonly string[]): Promise<SandboxedStart | undefined>;
  /** Answers the server's questions (elicitation); without it Keel declares none and servers do not ask. */
  elicit?: Elicitor;
  /** Runs the server's sampling requests once the person approves; without it Keel declares no sampling. */
  sample?: Sampler;
  /** The host draws MCP Apps: Keel declares the ui extension, so servers offer their app tools. */
  apps?: boolean;
  /** Signs in to HTTP servers that ask; without it a 401 is reported as such. */
  oauth?: McpOAuthHost;
  /** The host may send the person to sign in whenever a server asks (the CLI); otherwise only `start({ signIn: true })` does. */
  signInWhenAsked?: boolean;
}
