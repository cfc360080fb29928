import * as l10n from '@vscode/l10n';
import type { SubagentView } from '../../../src/protocol/subagentSteps';
import { Icon } from '../../ui/Icon';

const stepIcon = { running: 'loading', done: 'check', error: 'error' } as const;

/** A subagent's own steps on its task card: its tool calls (title, line, how they ended) and what it wrote, in order. */
export function SubagentSteps({ subagent }: { subagent: SubagentView }) {
  return (
    <div className="subagent-steps" data-testid="subagent-steps" data-agent={subagent.agent}>
      <div className="tool-card-section-title">
        <Icon name="organization" /> {l10n.t('Steps of the {0} agent', subagent.agent)}
      </div>
      {subagent.dropped ? <div className="tool-card-change-note">{l10n.t('{0} earlier step(s) not shown', subagent.dropped)}</div> : null}
      <ol className="subagent-step-list">
        {subagent.steps.map((step, i) =>
          step.kind === 'tool' ? (
            <li key={step.id} className="subagent-step subagent-step-tool" data-testid="subagent-step" data-kind="tool" data-state={step.state}>
              <Icon name={stepIcon[step.state]} spin={step.state === 'running'} /> <span className="tool-card-name">{step.title}</span>{' '}
              <span className="tool-card-headline">{step.summary}</span>
            </li>
          ) : (
            <li key={`text-${i}`} className="subagent-step subagent-step-text" data-testid="subagent-step" data-kind="text">
              {step.text}
            </li>
          ),
        )}
      </ol>
    </div>
  );
}
