import * as l10n from '@vscode/l10n';
import type { ToolDetailsOf } from '../../../src/protocol/toolDisplay';

/** The file a call reads or changes, and the lines it asked for. */
export function FileDetails({ details }: { details: ToolDetailsOf<'fileChange'> }) {
  return (
    <div className="tool-details tool-details-file" data-testid="tool-details" data-kind="fileChange">
      <span className="approval-card-path">{details.path}</span>
      {details.range ? <span className="tool-details-note">{l10n.t('lines {0}', details.range)}</span> : null}
    </div>
  );
}
