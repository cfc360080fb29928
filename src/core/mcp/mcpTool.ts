import * as z from 'zod';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../errors';
import type { AnyTool, ToolProgress, ToolResult } from '../tools/tool';
import { defineTool, errorResult } from '../tools/tool';
import { keyArgument, keyValueDetails } from '../tools/toolPresentation';
import { protectedArgumentPaths } from './mcpArgumentPaths';
import { isRecord, mcpAppUri } from './mcpAppMeta';
import type { ResultCaps } from './mcpResult';
import { convertToolResult } from './mcpResult';
import type { McpProgress, McpToolInfo } from './mcpTypes';

export interface McpToolBinding {
  server: string;
  info: McpToolInfo;
  /** The name the model sees (`mcp__<server>__<tool>`). */
  name: string;
  timeoutMs: number;
  caps: ResultCaps;
  call(args: Record<string, unknown>, signal: AbortSignal, onProgress?: (p: McpProgress) => void): Promise<unknown>;
}

/**
 * An MCP server's tool as a Keel tool: the server's JSON schema goes to the model as it is,
 * read-only tools (annotations.readOnlyHint) count as `read`, every other one as `network`.
 * Whatever goes wrong (timeout, crash, malformed answer) ends as an error result the model
 * can read, never as a hang.
 */
export function mcpTool(b: McpToolBinding): AnyTool {
  const { server, info } = b;
  const about = info.description ?? info.title ?? info.name;
  return defineTool<Record<string, unknown>>({
    name: b.name,
    description: `${about}\n(Tool "${info.name}" of the MCP server "${server}".)`,
    category: info.readOnly ? 'read' : 'network',
    inputSchema: z.record(z.string(), z.unknown()),
    jsonSchema: modelSchema(info.inputSchema),
    present: (input) => ({
      title: `${server}: ${info.title ?? info.name}`,
      summary: keyArgument(input, info.name),
      icon: info.readOnly ? 'plug' : 'zap',
      details: keyValueDetails(input),
    }),
    async preview(input, ctx) {
      const args = JSON.stringify(input);
      // A call that may change something and names a protected path asks in every mode.
      const paths = info.readOnly ? [] : await protectedArgumentPaths(input, ctx.workspace);
      return { summary: `MCP ${server}: ${info.name} ${args.length > 200 ? `${args.slice(0, 200)}…` : args}`, paths };
    },
    async execute(input, ctx): Promise<ToolResult> {
      let raw: unknown;
      try {
        raw = await b.call(input, ctx.signal, ctx.onProgress ? (p) => ctx.onProgress?.(toolProgress(p)) : undefined);
      } catch (err) {
        return errorResult(describeCallError(err, b, ctx.signal));
      }
      const result = convertToolResult(raw, b.caps);
      if (isRecord(raw)) {
        const appUri = mcpAppUri(raw._meta) ?? info.appUri;
        const answer = { server, tool: info.name, result: raw, ...(appUri ? { appUri } : {}) };
        if (appUri) result.mcp = answer;
        ctx.onMcpResult?.(answer);
      }
      return result;
    },
  });
}

function describeCallError(err: unknown, b: McpToolBinding, signal: AbortSignal): string {
  const what = `MCP tool "${b.info.name}" of server "${b.server}"`;
  if (signal.aborted) return `${what} was cancelled.`;
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) {
      return `${what} did not answer within ${b.timeoutMs / 1000} s; the call was cancelled. The server may be stuck: try another way or tell the person.`;
    }
    if (err.code === ErrorCode.ConnectionClosed) return `${what} failed: the server closed the connection (it crashed or exited) during the call. Keel restarts it.`;
    return `${what} failed: ${err.message}`;
  }
  const issues = (err as { issues?: unknown }).issues;
  if (Array.isArray(issues)) {
    const first = issues.slice(0, 3).map((i: { path?: unknown[]; message?: string }) => `${(i.path ?? []).join('.') || '(result)'}: ${i.message ?? ''}`);
    return `${what} returned a malformed result (${first.join('; ')}).`;
  }
  return `${what} failed: ${errorMessage(err)}`;
}

/** Providers want an object schema with properties; the `$schema` key means nothing to them. */
function modelSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return { ...rest, type: 'object', properties: (rest.properties as object | undefined) ?? {} };
}

/** A server's progress as the card shows it: a whole percent when it gave a total, and its message. */
export function toolProgress(p: McpProgress): ToolProgress {
  const out: ToolProgress = {};
  if (p.total !== undefined && p.total > 0 && Number.isFinite(p.progress)) out.percent = Math.max(0, Math.min(100, Math.round((p.progress / p.total) * 100)));
  if (p.message) out.message = p.message.length > 200 ? `${p.message.slice(0, 199)}…` : p.message;
  return out;
}
