import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isAbsolute } from 'node:path';
import { errorMessage } from '../errors';
import type { ChildEnvPolicy } from '../env/childEnv';
import type { SandboxedStart } from '../sandbox/sandboxTypes';
import type { McpServerConfig } from './mcpConfig';
import { serverEnv } from './mcpEnv';

export interface StdioStart {
  workspaceRoot: string;
  env: Record<string, string | undefined>;
  envPolicy?: ChildEnvPolicy;
  /** Prepares the OS sandbox the server runs in; undefined: it runs without one. */
  sandboxStart?(cwd: string, visible: readonly string[]): Promise<SandboxedStart | undefined>;
  /** A line for the server's log (what Keel did). */
  note(line: string): void;
  /** A line the server wrote to stderr. */
  stderrLine(line: string): void;
  /** Says in Keel's own log that the server starts. */
  announce(line: string): void;
}

/**
 * A local server's transport: its command in the OS sandbox when there is one (the sandbox is
 * released, and what it undid logged, when the transport closes), its stderr read line by line.
 */
export async function stdioTransport(c: Extract<McpServerConfig, { type: 'stdio' }>, opts: StdioStart): Promise<{ transport: StdioClientTransport; sandboxed: boolean }> {
  const cwd = c.cwd ?? opts.workspaceRoot;
  // The server's own files (a script named by path) must stay readable in the sandbox.
  const sandboxed = await opts.sandboxStart?.(cwd, [c.command, ...c.args].filter((a) => isAbsolute(a)));
  const transport = new StdioClientTransport({
    command: sandboxed ? sandboxed.prefix[0]! : c.command,
    args: sandboxed ? [...sandboxed.prefix.slice(1), c.command, ...c.args] : c.args,
    env: serverEnv(c.env, opts.env, opts.envPolicy),
    cwd,
    stderr: 'pipe',
  });
  if (sandboxed) {
    // The client chains its own close handler after this one.
    transport.onclose = () => {
      sandboxed.release().then(
        (removed) => {
          removed.forEach((p) => opts.note(`[keel] removed ${p}, which the server created in the sandbox`));
          sandboxed.report.forEach((line) => opts.note(`[keel] ${line}`));
        },
        (err: unknown) => opts.note(`[keel] sandbox cleanup failed: ${errorMessage(err)}`),
      );
    };
  }
  const how = sandboxed ? ' (in the OS sandbox)' : '';
  opts.note(`[keel] starting ${c.command} ${c.args.join(' ')}${how}`);
  opts.announce(`MCP server "${c.name}": starting ${c.command} ${c.args.join(' ')}${how}`);
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const lines = text.split(/\r?\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) opts.stderrLine(line);
  });
  return { transport, sandboxed: sandboxed !== undefined };
}
