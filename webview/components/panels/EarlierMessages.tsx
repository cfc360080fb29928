import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';

/** Above a long resumed conversation: how many earlier messages are not shown, and the way to show them. */
export function EarlierMessages() {
  const bridge = useBridge();
  const earlier = useMeta((meta) => meta.earlierMessages);
  const running = useMeta((meta) => meta.run.running);
  const [loading, setLoading] = useState(false);
  if (earlier === 0) return null;
  return (
    <div className="earlier-messages" data-testid="earlier-messages">
      <span>
        {earlier === 1 ? l10n.t('1 earlier message not shown') : l10n.t('{0} earlier messages not shown', earlier.toLocaleString())}
      </span>
      <Button
        appearance="secondary"
        testId="load-earlier"
        disabled={running || loading}
        onClick={() => {
          setLoading(true);
          void bridge.call('session.loadEarlier', {}).finally(() => setLoading(false));
        }}
      >
        {loading ? l10n.t('Loading…') : l10n.t('Show all')}
      </Button>
    </div>
  );
}
