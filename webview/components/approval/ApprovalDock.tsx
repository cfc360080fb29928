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
  const answerAll = (decision: 'approve' | 'reject'): void => {
    for (const request of changes) bridge.respondToApproval(request.id, { decision });
  };
  return (
    <div className="approval-batch" data-testid="approval-batch" role="group" aria-label="Pending file changes">
      <span className="approval-batch-label">{changes.length} file changes are waiting</span>
      <Button onClick={() => answerAll('approve')} testId="accept-all" title="Apply every pending file change as shown">
        Accept all
      </Button>
      <Button appearance="secondary" onClick={() => answerAll('reject')} testId="reject-all" title="Write none of the pending file changes">
        Reject all
      </Button>
    </div>
  );
}
