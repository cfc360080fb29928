import * as l10n from '@vscode/l10n';
import type { ToolDetailsOf } from '../../../src/protocol/toolDisplay';

/** A command line as it runs: what it is for, where, and whether it stays in the background. */
export function CommandDetails({ details }: { details: ToolDetailsOf<'command'> }) {
  return (
    <div className="tool-details tool-details-command" data-testid="tool-details" data-kind="command">
      {details.description ? <div className="tool-details-note">{details.description}</div> : null}
      <pre className="tool-card-pre">$ {details.command}</pre>
      {details.cwd || details.background ? (
        <div className="tool-details-note">
          {details.cwd ? l10n.t('in {0}', details.cwd) : null}
          {details.cwd && details.background ? ' · ' : null}
          {details.background ? l10n.t('in the background') : null}
        </div>
      ) : null}
    </div>
  );
}
