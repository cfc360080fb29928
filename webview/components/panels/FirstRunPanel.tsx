import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

/**
 * No model yet: say so plainly and offer the ways to fix it. A key is asked for only when
 * the chosen endpoint needs one; for a local server (Ollama, LM Studio, a custom base URL)
 * choosing the model in settings is the whole set-up, so that is the main button.
 */
export function FirstRunPanel() {
  const bridge = useBridge();
  const problem = useMeta((meta) => meta.config.problem);
  const endpoint = useMeta((meta) => meta.config.endpoint);
  const needsKey = endpoint?.needsKey ?? true;
  const where = endpoint ? `${endpoint.label}${endpoint.baseURL && endpoint.baseURL !== endpoint.label ? ` (${endpoint.baseURL})` : ''}` : l10n.t('an OpenAI-compatible endpoint');
  const setKey = (
    <Button appearance={needsKey ? 'primary' : 'secondary'} onClick={() => void bridge.call('command.run', { command: 'keel.setApiKey' })} testId="set-api-key">
      {l10n.t('Set API Key')}
    </Button>
  );
  const openSettings = (
    <Button appearance={needsKey ? 'secondary' : 'primary'} onClick={() => void bridge.call('settings.open', { query: 'keel' })} testId="open-settings">
      {l10n.t('Open Settings')}
    </Button>
  );
  return (
    <section className="first-run" data-testid="first-run" data-needs-key={needsKey} aria-label={l10n.t('Set up a model')}>
      <h2>
        <Icon name="sparkle" /> {l10n.t('Connect Keel to a model')}
      </h2>
      <p>
        {needsKey
          ? l10n.t('Keel talks to {0}, which needs an API key. No model is configured yet, so messages cannot be answered.', where)
          : l10n.t('Keel talks to {0}, which needs no key. Choose one of its models in settings; until then messages cannot be answered.', where)}
      </p>
      {problem ? (
        <p className="first-run-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="first-run-actions">
        {needsKey ? setKey : openSettings}
        {needsKey ? openSettings : setKey}
      </div>
      <p className="first-run-hint">
        {needsKey
          ? l10n.t("In settings, choose the model and, for a provider other than OpenAI, its base URL. The key is kept in VS Code's secret storage, never in settings files.")
          : l10n.t('Set keel.model to a model the server has loaded; the picker below then lists what the server offers. A key is only needed if your server asks for one.')}
      </p>
    </section>
  );
}
