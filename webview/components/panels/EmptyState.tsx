/** A new conversation: what Keel can do, in two lines. */
export function EmptyState() {
  return (
    <div className="empty-state">
      <p>Ask Keel to explain, change or plan code in this workspace.</p>
      <p className="empty-state-hint">Type @ to add files, / for commands. Edits and commands wait for your approval.</p>
    </div>
  );
}
