import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

/** Restricted Mode: what still works and how to change it. */
export function UntrustedBanner() {
  const bridge = useBridge();
  return (
    <div className="banner banner-warning" role="status" data-testid="untrusted-banner">
      <Icon name="workspace-untrusted" />
      <span className="banner-text">
        {l10n.t('This workspace is not trusted: Keel can read and search, but file edits, commands and MCP tools are off.')}
      </span>
      <Button appearance="secondary" onClick={() => void bridge.call('command.run', { command: 'workbench.trust.manage' })}>
        {l10n.t('Manage Trust')}
      </Button>
    </div>
  );
}
