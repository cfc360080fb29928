import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { TextArea } from '../../ui/TextArea';

/**
 * Under a plan that waits for the person: open it in an editor (and edit it there), execute
 * it in act mode, ask for changes, or set it aside.
 */
export function PlanActions() {
  const bridge = useBridge();
  const plan = useMeta((meta) => meta.plan);
  const running = useMeta((meta) => meta.run.running);
  const [feedback, setFeedback] = useState<string | null>(null);
  if (!plan || (plan.status !== 'proposed' && plan.status !== 'edited')) return null;
  const { id } = plan;

  const refine = async (): Promise<void> => {
    if (!feedback?.trim()) return;
    if ((await bridge.call('plan.refine', { planId: id, feedback })) !== undefined) setFeedback(null);
  };

  return (
    <section className="plan-actions" aria-label={l10n.t('Plan')} data-testid="plan-actions">
      <div className="plan-actions-title">
        <Icon name="checklist" />
        <span>
          {l10n.t('Plan ready')}
          {plan.steps ? ` · ${plan.steps === 1 ? l10n.t('1 step') : l10n.t('{0} steps', plan.steps)}` : ''}
          {plan.status === 'edited' ? ` · ${l10n.t('edited')}` : ''}
        </span>
      </div>
      <div className="plan-actions-buttons">
        <Button appearance="primary" testId="plan-execute" disabled={running} onClick={() => void bridge.call('plan.execute', { planId: id })}>
          {l10n.t('Execute plan')}
        </Button>
        <Button appearance="secondary" testId="plan-open" onClick={() => void bridge.call('plan.open', { planId: id })}>
          {l10n.t('Open plan')}
        </Button>
        <Button appearance="secondary" testId="plan-refine" disabled={running} onClick={() => setFeedback(feedback === null ? '' : null)}>
          {l10n.t('Refine')}
        </Button>
        <Button appearance="secondary" testId="plan-discard" disabled={running} onClick={() => void bridge.call('plan.discard', { planId: id })}>
          {l10n.t('Discard')}
        </Button>
      </div>
      {feedback !== null ? (
        <div className="plan-refine">
          <TextArea
            value={feedback}
            label={l10n.t('What should change in the plan?')}
            placeholder={l10n.t('What should change in the plan? (Enter sends)')}
            testId="plan-feedback"
            onChange={(text) => setFeedback(text)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void refine();
              } else if (event.key === 'Escape') setFeedback(null);
            }}
          />
          <Button appearance="primary" testId="plan-refine-send" disabled={!feedback.trim()} onClick={() => void refine()}>
            {l10n.t('Send feedback')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
