import { mcpToolName } from './mcp/mcpNames';
import type { RunMode } from './plugins/pluginTypes';
import type { ProjectEvent, RunOptions } from './projectTypes';
import { usableTools } from './runRequest';
import { ToolCalls } from './toolCalls';
import type { ToolCallHost } from './toolCalls';
import type { AnyTool, McpCallResult, ToolContext, ToolPreview, ToolResult } from './tools/tool';

/** A `tools/call` an MCP App made, of a tool of the server that showed it. */
export interface AppToolCall {
  /** A fresh id for this call (its approval card and events carry it). */
  toolCallId: string;
  server: string;
  /** The server's own name of the tool. */
  tool: string;
  arguments: Record<string, unknown>;
}

export interface AppToolCallOptions {
  /** The conversation's mode: in plan mode only read-only tools run, as for the model. */
  mode: RunMode;
  signal: AbortSignal;
  onToolApprove: RunOptions['onToolApprove'];
  emit(event: ProjectEvent): void;
}

/**
 * An app's call, through the same pipeline as the model's calls of that tool: only tools the
 * server lets its apps call (`_meta.ui.visibility`), and only as a run in `mode` would (plan
 * mode, an untrusted workspace); then the toolUse and PreToolUse hooks, the input check, the
 * approval rules and the person's approval. An app may call only tools of its own server. The result goes back to the app; the model does not see it.
 */
export async function appToolCall(host: ToolCallHost, call: AppToolCall, opts: AppToolCallOptions): Promise<AppToolCallResult> {
  const name = mcpToolName(call.server, call.tool);
  // The tools its apps may call (some only they may), with a run's limits of the mode and trust.
  const tool = usableTools(host.ctx, opts.mode, await host.ctx.mcp.appTools()).find((t) => t.name === name);
  let answer: McpCallResult | undefined;
  // The same tool, told to hand over the server's own answer (the app gets it whole); its
  // approval card says the app asks, not the model.
  const preview = tool?.preview?.bind(tool);
  const keeping: AnyTool | undefined = tool && {
    ...tool,
    ...(preview ? { preview: async (input: unknown, ctx: ToolContext) => appAsks(await preview(input, ctx)) } : {}),
    execute: (input, ctx) => tool.execute(input, { ...ctx, onMcpResult: (r) => (answer = r) }),
  };
  const offered = new Map(keeping ? [[name, keeping]] : []);
  const calls = new ToolCalls(host, { mode: opts.mode, offered, signal: opts.signal, onToolApprove: opts.onToolApprove, emit: opts.emit });
  try {
    const result = await calls.call({ toolCallId: call.toolCallId, toolName: name, input: call.arguments });
    return answer ? { result, answer } : { result };
  } finally {
    calls.end();
  }
}

/** What the call came to (declined, failed, done), and the server's own answer when it ran. */
export interface AppToolCallResult {
  result: ToolResult;
  answer?: McpCallResult;
}

function appAsks(seen: ToolPreview): ToolPreview {
  return { ...seen, summary: `${seen.summary} (asked by the app on its card)` };
}
