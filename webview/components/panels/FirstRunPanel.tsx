import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

/** No model yet: say so plainly and offer the two ways to fix it. */
export function FirstRunPanel() {
  const bridge = useBridge();
  const problem = useMeta((meta) => meta.config.problem);
  return (
    <section className="first-run" data-testid="first-run" aria-label="Set up a model">
      <h2>
        <Icon name="sparkle" /> Connect Keel to a model
      </h2>
      <p>
        Keel talks to an OpenAI-compatible endpoint and needs an API key for it. No model is configured yet, so
        messages cannot be answered.
      </p>
      {problem ? (
        <p className="first-run-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="first-run-actions">
        <Button onClick={() => void bridge.runCommand('keel.setApiKey')} testId="set-api-key">
          Set API Key
        </Button>
        <Button appearance="secondary" onClick={() => void bridge.openSettings('keel')} testId="open-settings">
          Open Settings
        </Button>
      </div>
      <p className="first-run-hint">
        In settings, choose the model and, for a provider other than OpenAI, its base URL. The key is kept in VS
        Code&apos;s secret storage, never in settings files.
      </p>
    </section>
  );
}
