import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import type { ToolApprovalRequest, ToolCategory } from '../../../src/protocol/toolApproval';
import { useBridge } from '../../bridge/bridgeContext';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { TextField } from '../../ui/TextField';

// Built at render time: the page's locale is applied after the modules load.
// The tool's name is shown in bold before this phrase, in every language.
function wantsTo(category: ToolCategory): string {
  switch (category) {
    case 'read':
      return l10n.t('wants to read');
    case 'write':
      return l10n.t('wants to change a file');
    case 'command':
      return l10n.t('wants to run a command');
    case 'network':
      return l10n.t('wants to reach the network');
  }
}

const changeVerb = (kind: 'create' | 'edit' | 'delete'): string =>
  kind === 'create' ? l10n.t('Create') : kind === 'edit' ? l10n.t('Edit') : l10n.t('Delete');

/**
 * What the agent wants to do and the person's three answers. A protected path is marked
 * as sensitive and cannot be allowed for the rest of the session.
 */
export function ApprovalCard({ request }: { request: ToolApprovalRequest }) {
  const bridge = useBridge();
  const [reason, setReason] = useState('');
  const { change } = request;

  const approve = (scope: 'once' | 'session'): void => bridge.respondToApproval(request.id, { approved: true, scope });
  const reject = (): void => {
    const trimmed = reason.trim();
    bridge.respondToApproval(request.id, trimmed ? { approved: false, reason: trimmed.slice(0, 2000) } : { approved: false });
  };

  return (
    <section
      className={`approval-card${request.protected ? ' approval-card-protected' : ''}`}
      data-testid="approval-card"
      aria-label={l10n.t('Approve {0}?', request.tool)}
    >
      <header className="approval-card-title">
        <Icon name={request.protected ? 'warning' : 'shield'} />
        <span>
          <strong>{request.tool}</strong> {wantsTo(request.category)}
        </span>
      </header>
      {request.protected ? (
        <p className="approval-card-sensitive" data-testid="approval-sensitive">
          {l10n.t(
            'Sensitive: this touches a protected path (editor settings, git data, agent rules or configuration). Check it carefully; it always needs your approval.',
          )}
        </p>
      ) : null}
      {request.unsandboxed ? (
        <p className="approval-card-sensitive" data-testid="approval-unsandboxed">
          {l10n.t(
            "Outside the sandbox: this command asks to run without Keel's OS sandbox, with your full access to files, secrets and the network. It needs your approval every time.",
          )}
        </p>
      ) : null}
      {request.writeAccess ? (
        <p className="approval-card-sensitive" data-testid="approval-write-access">
          {l10n.t(
            'Write access: a rule lets this command run only with the workspace read-only, and it asks to change files. Approving lets it write the workspace this once; protected paths stay protected.',
          )}
        </p>
      ) : null}
      {request.network ? (
        <p className="approval-card-network" data-testid="approval-network">
          {l10n.t(
            'Network: this command asks for network access (downloads, git fetch). Approving lets it reach the network; its file writes stay confined by the sandbox.',
          )}
        </p>
      ) : null}
      {/* A file change names itself in the change row below (verb, path, +/−): the summary would say it twice. */}
      {request.summary && !change ? <code className="approval-card-summary">{request.summary}</code> : null}
      {change ? (
        <div className="approval-card-change">
          <span>
            {changeVerb(change.kind)} <span className="approval-card-path">{change.displayPath}</span>
          </span>
          <span className="diff-added" aria-label={l10n.t('{0} lines added', change.added)}>
            +{change.added}
          </span>
          <span className="diff-removed" aria-label={l10n.t('{0} lines removed', change.removed)}>
            −{change.removed}
          </span>
          <Button
            appearance="secondary"
            onClick={() => void bridge.call('diff.open', { approvalId: request.id })}
            testId="open-diff"
            title={l10n.t('Review it in the diff editor: edit the proposal, accept or reject hunk by hunk')}
          >
            {l10n.t('Open diff')}
          </Button>
        </div>
      ) : null}
      <TextField
        value={reason}
        onChange={setReason}
        // Short enough for a 200 px side bar; the rest is in the label and on hover.
        label={l10n.t('Reason for rejecting (optional), passed to the agent')}
        title={l10n.t('Reason for rejecting (optional), passed to the agent')}
        placeholder={l10n.t('Reason (optional)')}
        maxLength={2000}
        testId="reject-reason"
        onEnter={reject}
      />
      <div className="approval-card-actions">
        <Button onClick={() => approve('once')} testId="approve" title={change ? l10n.t('Apply the change as the diff shows it') : l10n.t('Allow this call once')}>
          {change ? l10n.t('Accept') : l10n.t('Approve')}
        </Button>
        <Button appearance="secondary" onClick={reject} testId="reject" title={l10n.t('Refuse this call')}>
          {l10n.t('Reject')}
        </Button>
        {alwaysAllowLabel(request) === null ? null : (
          <Button
            appearance="secondary"
            onClick={() => approve('session')}
            testId="always-allow"
            title={l10n.t('Allow {0} without asking for the rest of this session', alwaysAllowLabel(request) ?? '')}
          >
            {l10n.t('Always allow {0}', alwaysAllowLabel(request) ?? '')}
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
