import { useMeta } from '../../store/storeHooks';
import { ApprovalCard } from './ApprovalCard';

/** Open approvals sit above the composer, never scrolled out of reach by the message list. */
export function ApprovalDock() {
  const approvals = useMeta((meta) => meta.approvals);
  if (approvals.length === 0) return null;
  return (
    <div className="approval-dock">
      {approvals.map((request) => (
        <ApprovalCard key={request.id} request={request} />
      ))}
    </div>
  );
}
