import * as l10n from '@vscode/l10n';
import type { UiError } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import type { UiBridge } from '../../bridge/uiBridge';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { IconButton } from '../../ui/IconButton';

/** Errors not tied to one message, each with the action that can fix it. */
export function ErrorBanners() {
  const bridge = useBridge();
  const errors = useMeta((meta) => meta.errors);
  if (errors.length === 0) return null;
  return (
    <div className="error-banners">
      {errors.map(({ id, error }) => (
        <div key={id} className="banner banner-error" role="alert" data-testid="error-banner" data-code={error.code}>
          <Icon name="error" />
          <span className="banner-text">{error.message}</span>
          <ErrorAction error={error} bridge={bridge} dismiss={() => bridge.dismissError(id)} />
          <IconButton icon="close" label={l10n.t('Dismiss')} onClick={() => bridge.dismissError(id)} />
        </div>
      ))}
    </div>
  );
}

function ErrorAction({ error, bridge, dismiss }: { error: UiError; bridge: UiBridge; dismiss: () => void }) {
  if (error.code === 'model_not_configured' || error.code === 'auth_failed') {
    return (
      <Button appearance="secondary" onClick={() => void bridge.call('command.run', { command: 'keel.setApiKey' })}>
        {l10n.t('Set API Key')}
      </Button>
    );
  }
  if (error.code === 'invalid_config') {
    return (
      <Button appearance="secondary" onClick={() => void bridge.call('settings.open', { query: 'keel' })}>
        {l10n.t('Open Settings')}
      </Button>
    );
  }
  if (error.code === 'context_too_long') {
    return (
      <Button appearance="secondary" onClick={() => void bridge.newChat()}>
        {l10n.t('New chat')}
      </Button>
    );
  }
  if (error.retryable) {
    return (
      <Button
        appearance="secondary"
        testId="retry"
        onClick={() => {
          dismiss();
          void bridge.retryLast();
        }}
      >
        {l10n.t('Retry')}
      </Button>
    );
  }
  return null;
}
