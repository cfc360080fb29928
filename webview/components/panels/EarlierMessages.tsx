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
        {earlier.toLocaleString()} earlier {earlier === 1 ? 'message' : 'messages'} not shown
      </span>
      <Button
        appearance="secondary"
        testId="load-earlier"
        disabled={running || loading}
        onClick={() => {
          setLoading(true);
          void bridge.loadEarlier().finally(() => setLoading(false));
        }}
      >
        {loading ? 'Loading…' : 'Show all'}
      </Button>
    </div>
  );
}
