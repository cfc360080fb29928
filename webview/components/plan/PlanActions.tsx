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
    if (await bridge.refinePlan(id, feedback)) setFeedback(null);
  };

  return (
    <section className="plan-actions" aria-label="Plan" data-testid="plan-actions">
      <div className="plan-actions-title">
        <Icon name="checklist" />
        <span>
          Plan ready{plan.steps ? ` · ${plan.steps} step${plan.steps === 1 ? '' : 's'}` : ''}
          {plan.status === 'edited' ? ' · edited' : ''}
        </span>
      </div>
      <div className="plan-actions-buttons">
        <Button appearance="primary" testId="plan-execute" disabled={running} onClick={() => void bridge.executePlan(id)}>
          Execute plan
        </Button>
        <Button appearance="secondary" testId="plan-open" onClick={() => void bridge.openPlan(id)}>
          Open plan
        </Button>
        <Button appearance="secondary" testId="plan-refine" disabled={running} onClick={() => setFeedback(feedback === null ? '' : null)}>
          Refine
        </Button>
        <Button appearance="secondary" testId="plan-discard" disabled={running} onClick={() => void bridge.discardPlan(id)}>
          Discard
        </Button>
      </div>
      {feedback !== null ? (
        <div className="plan-refine">
          <TextArea
            value={feedback}
            label="What should change in the plan?"
            placeholder="What should change in the plan? (Enter sends)"
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
            Send feedback
          </Button>
        </div>
      ) : null}
    </section>
  );
}
