import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { ApprovalCard } from './ApprovalCard';

/** Open approvals sit above the composer, never scrolled out of reach by the message list. */
export function ApprovalDock() {
  const approvals = useMeta((meta) => meta.approvals);
  if (approvals.length === 0) return null;
  return (
    <div className="approval-dock">
      <ChangeBatch />
      {approvals.map((request) => (
        <ApprovalCard key={request.id} request={request} />
      ))}
    </div>
  );
}

/** Several file changes waiting (one turn editing several files): decide them all at once. */
function ChangeBatch() {
  const bridge = useBridge();
  const approvals = useMeta((meta) => meta.approvals);
  const changes = approvals.filter((request) => request.change !== undefined);
  if (changes.length < 2) return null;
  const answerAll = (approved: boolean): void => {
    for (const request of changes) bridge.respondToApproval(request.id, approved ? { approved, scope: 'once' } : { approved });
  };
  return (
    <div className="approval-batch" data-testid="approval-batch" role="group" aria-label={l10n.t('Pending file changes')}>
      <span className="approval-batch-label">{l10n.t('{0} file changes are waiting', changes.length)}</span>
      <Button onClick={() => answerAll(true)} testId="accept-all" title={l10n.t('Apply every pending file change as shown')}>
        {l10n.t('Accept all')}
      </Button>
      <Button appearance="secondary" onClick={() => answerAll(false)} testId="reject-all" title={l10n.t('Write none of the pending file changes')}>
        {l10n.t('Reject all')}
      </Button>
    </div>
  );
}
