import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import type { RevertResult } from '../../bridge/uiBridge';
import { Button } from '../../ui/Button';

type Step =
  | { kind: 'idle' }
  | { kind: 'busy' }
  /** Nothing was written: files changed since; the person may insist. */
  | { kind: 'conflict'; message: string }
  | { kind: 'told'; message: string; failed: boolean };

export interface RevertActionProps {
  label: string;
  /** Tooltip: what the button puts back. */
  title: string;
  testId: string;
  /** Asks the host; `force` after the person insisted over a conflict. */
  run(force: boolean): Promise<RevertResult | undefined>;
}

/**
 * A button that puts files back (Undo this change, Restore files to here). When files were
 * changed since Keel's change, the host writes nothing and says why; the person can then
 * put them back anyway or keep them.
 */
export function RevertAction({ label, title, testId, run }: RevertActionProps) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  const go = async (force: boolean): Promise<void> => {
    setStep({ kind: 'busy' });
    const result = await run(force);
    if (!result) setStep({ kind: 'idle' });
    else if (result.status === 'conflict') setStep({ kind: 'conflict', message: result.message });
    else setStep({ kind: 'told', message: result.message, failed: result.status === 'failed' });
  };

  switch (step.kind) {
    case 'idle':
    case 'busy':
      return (
        <Button appearance="secondary" title={title} testId={testId} disabled={step.kind === 'busy'} onClick={() => void go(false)}>
          {label}
        </Button>
      );
    case 'conflict':
      return (
        <div className="revert-conflict" role="alert" data-testid={`${testId}-conflict`}>
          <p className="revert-message">{step.message}</p>
          <div className="revert-actions">
            <Button appearance="secondary" testId={`${testId}-force`} onClick={() => void go(true)}>
              {l10n.t('Put back anyway')}
            </Button>
            <Button appearance="secondary" testId={`${testId}-keep`} onClick={() => setStep({ kind: 'idle' })}>
              {l10n.t('Keep them')}
            </Button>
          </div>
        </div>
      );
    case 'told':
      return (
        <p className={`revert-message${step.failed ? ' revert-failed' : ''}`} role="status" data-testid={`${testId}-result`}>
          {step.message}
        </p>
      );
  }
}
