import * as l10n from '@vscode/l10n';
import type { McpStatusView } from '../../../src/protocol/mcpStatus';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Icon } from '../../ui/Icon';
import { IconButton } from '../../ui/IconButton';

const STATE_ICON: Record<McpStatusView['servers'][number]['state'], string> = {
  starting: 'loading',
  ready: 'pass-filled',
  failed: 'error',
  disabled: 'circle-slash',
  signin: 'sign-in',
};

/** The MCP servers and their states, folded to one line; the full actions are in "Keel: MCP Servers". */
export function McpStatusList() {
  const bridge = useBridge();
  const servers = useMeta((meta) => meta.mcp.servers);
  if (servers.length === 0) return null;
  const failed = servers.filter((s) => s.state === 'failed').length;
  const ready = servers.filter((s) => s.state === 'ready').length;
  // Open when something needs the person: a failure to read, a "Sign in" to click.
  const attention = failed > 0 || servers.some((s) => s.state === 'signin');
  return (
    <details className="todo-panel mcp-status" data-testid="mcp-status" open={attention ? true : undefined}>
      <summary>
        {failed ? l10n.t('MCP {0}/{1} ready, {2} failed', ready, servers.length, failed) : l10n.t('MCP {0}/{1} ready', ready, servers.length)}
      </summary>
      <ul>
        {servers.map((s) => (
          <li key={s.name} className={`todo mcp-${s.state}`} data-testid="mcp-server">
            <Icon name={STATE_ICON[s.state]} />
            <span>
              <b>{s.name}</b> {s.text}
            </span>
            {s.state === 'signin' ? (
              <button type="button" className="mcp-sign-in" data-testid="mcp-sign-in" onClick={() => void bridge.call('command.run', { command: 'keel.mcpSignIn', args: [s.name] })}>
                {l10n.t('Sign in')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <IconButton icon="settings-gear" label={l10n.t('Manage MCP servers')} testId="mcp-manage" onClick={() => void bridge.call('command.run', { command: 'keel.showMcpServers' })} />
    </details>
  );
}
