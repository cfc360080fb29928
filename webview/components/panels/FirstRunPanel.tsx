import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

/** No model yet: say so plainly and offer the two ways to fix it. */
export function FirstRunPanel() {
  const bridge = useBridge();
  const problem = useMeta((meta) => meta.config.problem);
  return (
    <section className="first-run" data-testid="first-run" aria-label={l10n.t('Set up a model')}>
      <h2>
        <Icon name="sparkle" /> {l10n.t('Connect Keel to a model')}
      </h2>
      <p>
        {l10n.t(
          'Keel talks to an OpenAI-compatible endpoint and needs an API key for it. No model is configured yet, so messages cannot be answered.',
        )}
      </p>
      {problem ? (
        <p className="first-run-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="first-run-actions">
        <Button onClick={() => void bridge.runCommand('keel.setApiKey')} testId="set-api-key">
          {l10n.t('Set API Key')}
        </Button>
        <Button appearance="secondary" onClick={() => void bridge.openSettings('keel')} testId="open-settings">
          {l10n.t('Open Settings')}
        </Button>
      </div>
      <p className="first-run-hint">
        {l10n.t(
          "In settings, choose the model and, for a provider other than OpenAI, its base URL. The key is kept in VS Code's secret storage, never in settings files.",
        )}
      </p>
    </section>
  );
}
