import * as l10n from '@vscode/l10n';
import { Button } from '../../ui/Button';

/** Accept (named for what it does), Decline and Cancel, as the protocol's three answers. */
export function AnswerButtons({
  accept,
  decline,
  cancel,
  disabled,
}: {
  accept: { label: string; title: string; run(): void };
  decline: { label: string; title: string; run(): void };
  cancel?(): void;
  disabled: boolean;
}) {
  return (
    <div className="mcp-card-actions">
      <Button onClick={accept.run} testId="mcp-accept" title={accept.title} disabled={disabled}>
        {accept.label}
      </Button>
      <Button appearance="secondary" onClick={decline.run} testId="mcp-decline" title={decline.title} disabled={disabled}>
        {decline.label}
      </Button>
      {cancel ? (
        <Button appearance="secondary" onClick={cancel} testId="mcp-cancel" title={l10n.t('Dismiss without answering')} disabled={disabled}>
          {l10n.t('Cancel')}
        </Button>
      ) : null}
    </div>
  );
}

export function GoneNote() {
  return <p className="mcp-card-note">{l10n.t('The server no longer waits for this answer.')}</p>;
}
