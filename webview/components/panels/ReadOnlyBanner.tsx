import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

/** The conversation is open for writing in another window: this one may only read it. */
export function ReadOnlyBanner() {
  const bridge = useBridge();
  const reason = useMeta((meta) => meta.session.readOnly);
  if (reason === undefined) return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="readonly-banner">
      <Icon name="lock" />
      <span className="banner-text">
        {l10n.t('Read-only: {0}. Only one window may write a conversation: continue it there, or start a new chat.', reason)}
      </span>
      <Button appearance="secondary" onClick={() => void bridge.newChat()}>
        {l10n.t('New chat')}
      </Button>
    </div>
  );
}
