import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

/**
 * Settings Keel ignored (a workspace's that would widen what Keel may do, values it cannot use),
 * shown while a model is configured; without one the first-run panel says it.
 */
export function ConfigNotice() {
  const bridge = useBridge();
  const problem = useMeta((meta) => (meta.config.modelConfigured ? meta.config.problem : null));
  if (!problem) return null;
  return (
    <div className="banner banner-warning config-notice" role="status" data-testid="config-notice">
      <Icon name="shield" />
      <span className="banner-text">{problem}</span>
      <Button appearance="secondary" onClick={() => void bridge.call('settings.open', { query: 'keel' })}>
        {l10n.t('Open Settings')}
      </Button>
    </div>
  );
}
