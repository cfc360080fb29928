import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Icon } from '../../ui/Icon';

/** Says plainly, while plan mode is on, that Keel only reads and plans. */
export function PlanBanner() {
  const bridge = useBridge();
  const mode = useMeta((meta) => meta.run.mode);
  if (mode !== 'plan') return null;
  return (
    <div className="plan-banner" role="status" data-testid="plan-banner">
      <Icon name="checklist" />
      <span className="plan-banner-text">{l10n.t('Plan mode: Keel reads and plans; it changes no files and runs no commands.')}</span>
      <button type="button" className="link-button" onClick={() => void bridge.call('mode.set', { mode: 'act' })}>
        {l10n.t('Switch to act')}
      </button>
    </div>
  );
}
