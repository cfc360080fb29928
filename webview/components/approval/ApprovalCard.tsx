import { useState } from 'react';
import type { ToolApprovalRequest, ToolCategory } from '../../../src/protocol/toolApproval';
import { useBridge } from '../../bridge/bridgeContext';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { TextField } from '../../ui/TextField';

const CATEGORY_VERB: Record<ToolCategory, string> = {
  read: 'read',
  write: 'change a file',
  command: 'run a command',
  network: 'reach the network',
};

const CHANGE_VERB = { create: 'Create', edit: 'Edit', delete: 'Delete' } as const;

/**
 * What the agent wants to do and the person's three answers. A protected path is marked
 * as sensitive and cannot be allowed for the rest of the session.
 */
export function ApprovalCard({ request }: { request: ToolApprovalRequest }) {
  const bridge = useBridge();
  const [reason, setReason] = useState('');
  const { change } = request;

  const answer = (decision: 'approve' | 'reject' | 'alwaysAllow'): void => {
    const trimmed = reason.trim();
    bridge.respondToApproval(
      request.id,
      decision === 'reject' && trimmed ? { decision, reason: trimmed.slice(0, 2000) } : { decision },
    );
  };

  return (
    <section
      className={`approval-card${request.protected ? ' approval-card-protected' : ''}`}
      data-testid="approval-card"
      aria-label={`Approve ${request.tool}?`}
    >
      <header className="approval-card-title">
        <Icon name={request.protected ? 'warning' : 'shield'} />
        <span>
          <strong>{request.tool}</strong> wants to {CATEGORY_VERB[request.category]}
        </span>
      </header>
      {request.protected ? (
        <p className="approval-card-sensitive" data-testid="approval-sensitive">
          Sensitive: this touches a protected path (editor settings, git data, agent rules or configuration). Check it
          carefully; it always needs your approval.
        </p>
      ) : null}
      {request.unsandboxed ? (
        <p className="approval-card-sensitive" data-testid="approval-unsandboxed">
          Outside the sandbox: this command asks to run without Keel's OS sandbox, with your full access to files, secrets
          and the network. It needs your approval every time.
        </p>
      ) : null}
      {request.network ? (
        <p className="approval-card-network" data-testid="approval-network">
          Network: this command asks for network access (downloads, git fetch). Approving lets it reach the network; its
          file writes stay confined by the sandbox.
        </p>
      ) : null}
      {request.summary ? <code className="approval-card-summary">{request.summary}</code> : null}
      {change ? (
        <div className="approval-card-change">
          <span>
            {CHANGE_VERB[change.kind]} <span className="approval-card-path">{change.displayPath}</span>
          </span>
          <span className="diff-added" aria-label={`${change.added} lines added`}>
            +{change.added}
          </span>
          <span className="diff-removed" aria-label={`${change.removed} lines removed`}>
            −{change.removed}
          </span>
          <Button
            appearance="secondary"
            onClick={() => void bridge.openDiff(request.id)}
            testId="open-diff"
            title="Review it in the diff editor: edit the proposal, accept or reject hunk by hunk"
          >
            Open diff
          </Button>
        </div>
      ) : null}
      <TextField
        value={reason}
        onChange={setReason}
        label="Reason for rejecting (optional)"
        placeholder="Reason for rejecting (optional), passed to the agent"
        maxLength={2000}
        testId="reject-reason"
        onEnter={() => answer('reject')}
      />
      <div className="approval-card-actions">
        <Button onClick={() => answer('approve')} testId="approve" title={change ? 'Apply the change as the diff shows it' : 'Allow this call once'}>
          {change ? 'Accept' : 'Approve'}
        </Button>
        <Button appearance="secondary" onClick={() => answer('reject')} testId="reject" title="Refuse this call">
          Reject
        </Button>
        {alwaysAllowLabel(request) === null ? null : (
          <Button
            appearance="secondary"
            onClick={() => answer('alwaysAllow')}
            testId="always-allow"
            title={`Allow ${alwaysAllowLabel(request)} without asking for the rest of this session`}
          >
            Always allow {alwaysAllowLabel(request)}
          </Button>
        )}
      </div>
    </section>
  );
}

/**
 * What "Always allow" would allow: commands are allowed by prefix (`npm test`), never the whole
 * tool, so a command without a prefix to offer gets no such button; protected paths never do.
 */
function alwaysAllowLabel(request: ToolApprovalRequest): string | null {
  if (request.protected || request.unsandboxed) return null;
  if (request.allowPrefixes?.length) return request.allowPrefixes.map((p) => `“${p}”`).join(', ');
  return request.category === 'command' ? null : request.tool;
}
