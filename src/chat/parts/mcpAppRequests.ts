import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../../core/jsonValue';
import type { Project } from '../../core/project';
import type { ApprovalAnswer, ApprovalRequest, ToolResult } from '../../core/tools';
import type { HostSide } from '../../protocol/catalogue';
import type { ResultIn } from '../../protocol/side';
import type { McpAppBook } from './mcpAppBook';
import type { RunMode } from '../../core/plugins';

export interface McpAppRequestsOptions {
  apps: McpAppBook;
  /** The conversation's Project; none before its first message. */
  project(): Project | undefined;
  /** The conversation's mode now (plan mode runs read-only tools only). */
  mode(): RunMode;
  /** The conversation's approval flow: the card the model's calls get. */
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

type OpenResult = ResultIn<HostSide, 'mcpApp.open'>;

/** The card's requests of an MCP App: its page, and the tool calls it makes. */
export class McpAppRequests {
  constructor(private readonly opts: McpAppRequestsOptions) {}

  /** The page of the app a shown call named, read from its server now. */
  async open(toolCallId: string): Promise<OpenResult> {
    const app = this.shown(toolCallId);
    const mcp = this.project().ctx.mcp;
    const page = await mcp.appPage(app.server, app.uri);
    const info = mcp.catalogue(app.server).tools.find((t) => t.name === app.tool);
    const tool: OpenResult['tool'] = { name: app.tool, inputSchema: (info?.inputSchema ?? { type: 'object' }) as Record<string, JsonValue> };
    if (info?.title) tool.title = info.title;
    if (info?.description) tool.description = info.description;
    return { html: page.html, csp: page.csp, tool, input: app.input as Record<string, JsonValue>, result: app.result as Record<string, JsonValue> };
  }

  /**
   * An app's `tools/call` of a tool of its own server, through the model's approval path (the
   * person's approval card where the rules ask). A declined or failed call comes back as an
   * error result the app can show.
   */
  async callTool(toolCallId: string, name: string, args: Record<string, unknown>): Promise<Record<string, JsonValue>> {
    const app = this.shown(toolCallId);
    const signal = new AbortController().signal;
    const { result, answer } = await this.project().appToolCall(
      { toolCallId: `app-${randomUUID()}`, server: app.server, tool: name, arguments: args },
      { mode: this.opts.mode(), signal, onToolApprove: (request) => this.opts.ask(request, signal), emit: () => undefined },
    );
    // The call ran: the app gets what the server answered (hooks' notes are for the model).
    if (answer) return answer.result as Record<string, JsonValue>;
    return { content: [{ type: 'text', text: resultText(result) }], isError: true };
  }

  private shown(toolCallId: string) {
    const app = this.opts.apps.get(toolCallId);
    if (!app) throw new Error(l10n.t('That tool call has no app to show (apps show for calls made while this window was open).'));
    return app;
  }

  private project(): Project {
    const project = this.opts.project();
    if (!project) throw new Error(l10n.t('This conversation is not open: send a message first.'));
    return project;
  }
}

function resultText(result: ToolResult): string {
  if (typeof result.output === 'string') return result.output;
  return result.output.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}
