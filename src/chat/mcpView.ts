import type { McpServerStatus } from '../core/mcp/mcpTypes';
import type { McpManager } from '../core/mcp/mcpManager';
import type { McpStatusView } from '../protocol/mcpStatus';
import type { ViewExtension } from './nodeBridge';

/** The view's side of MCP: the status list and prompts (sent after each `ready` and on change), and filling a prompt. */
export function mcpViewExtension(manager: McpManager): ViewExtension {
  return ({ bus, outbox, isReady, onReady }) => {
    const send = () => {
      if (isReady()) outbox.emit('mcp.status', mcpStatusView(manager));
    };
    const stopReady = onReady(send);
    const stopChanges = manager.onDidChange(send);
    bus.handle('mcp.prompt', async ({ server, prompt, args }) => ({ text: await manager.promptText(server, prompt, args) }));
    return () => {
      stopReady();
      stopChanges();
    };
  };
}

export function mcpStatusView(manager: McpManager): McpStatusView {
  return {
    servers: manager.status().map((s) => {
      const last = s.stderr?.at(-1);
      const text = `${stateText(s)}${last ? ` (stderr: ${last})` : ''}`;
      return { name: s.name.slice(0, 200), state: s.state, text: text.slice(0, 2000) };
    }),
    prompts: manager.prompts().map((p) => ({
      command: p.command,
      server: p.server,
      name: p.name,
      ...(p.description ? { description: p.description.slice(0, 1000) } : {}),
      arguments: p.arguments.map((a) => ({ name: a.name, required: a.required })),
    })),
  };
}

export function stateText(s: McpServerStatus): string {
  if (s.state === 'ready') {
    const more = [s.prompts ? `${s.prompts} prompt${s.prompts === 1 ? '' : 's'}` : '', s.resources ? `${s.resources} resource${s.resources === 1 ? '' : 's'}` : ''];
    return [`ready, ${s.tools} tool${s.tools === 1 ? '' : 's'}`, ...more.filter(Boolean)].join(', ');
  }
  if (s.state === 'failed') return `failed: ${s.reason ?? 'unknown reason'}`;
  if (s.state === 'disabled') return s.reason ? `off: ${s.reason}` : 'off';
  return 'starting…';
}
