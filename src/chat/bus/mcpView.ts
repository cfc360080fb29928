import * as l10n from '@vscode/l10n';
import type { McpServerStatus } from '../../core/mcp';
import type { McpManager } from '../../core/mcp';
import { MAX_VIEW_RESOURCES } from '../../protocol/mcpStatus';
import type { McpStatusView } from '../../protocol/mcpStatus';
import type { ViewExtension } from './nodeBridge';
import type { McpCards } from '../approvals/mcpCards';

/**
 * The view's side of MCP: the status list and prompts (sent after each `ready` and on change),
 * filling a prompt, and the person's answers to servers' request cards.
 */
export function mcpViewExtension(manager: McpManager, cards: Pick<McpCards, 'answer'>): ViewExtension {
  return ({ bus, outbox, isReady, onReady }) => {
    const send = () => {
      if (isReady()) outbox.emit('mcp.status', mcpStatusView(manager));
    };
    const stopReady = onReady(send);
    const stopChanges = manager.onDidChange(send);
    bus.handle('mcp.prompt', async ({ server, prompt, args }) => ({ text: await manager.promptText(server, prompt, args) }));
    bus.handle('mcp.answer', ({ requestId, answer }) => ({ settled: cards.answer(requestId, answer) }));
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
    resources: manager
      .resources()
      .filter((r) => r.uri.length <= 2048)
      .slice(0, MAX_VIEW_RESOURCES)
      .map((r) => ({
        server: r.server.slice(0, 200),
        uri: r.uri,
        name: r.name.slice(0, 200),
        ...(r.description ? { description: r.description.slice(0, 300) } : {}),
      })),
  };
}

export function stateText(s: McpServerStatus): string {
  if (s.state === 'ready') {
    const more = [
      s.prompts ? (s.prompts === 1 ? l10n.t('1 prompt') : l10n.t('{0} prompts', s.prompts)) : '',
      s.resources ? (s.resources === 1 ? l10n.t('1 resource') : l10n.t('{0} resources', s.resources)) : '',
    ];
    return [s.tools === 1 ? l10n.t('ready, 1 tool') : l10n.t('ready, {0} tools', s.tools), ...more.filter(Boolean)].join(l10n.t(', '));
  }
  if (s.state === 'failed') return l10n.t('failed: {0}', s.reason ?? l10n.t('unknown reason'));
  if (s.state === 'signin') return l10n.t('needs you to sign in');
  if (s.state === 'disabled') return s.reason ? l10n.t('off: {0}', s.reason) : l10n.t('off');
  return l10n.t('starting…');
}
