import * as l10n from '@vscode/l10n';
/** A new conversation: what Keel can do, in two lines. */
export function EmptyState() {
  return (
    <div className="empty-state">
      <p>{l10n.t('Ask Keel to explain, change or plan code in this workspace.')}</p>
      <p className="empty-state-hint">{l10n.t('Type @ to add files, / for commands. Edits and commands wait for your approval.')}</p>
    </div>
  );
}
