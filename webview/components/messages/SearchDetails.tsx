import * as l10n from '@vscode/l10n';
import type { ToolDetailsOf } from '../../../src/protocol/toolDisplay';

/** A search: the pattern, where it looked, and how many matches once known. */
export function SearchDetails({ details }: { details: ToolDetailsOf<'search'> }) {
  return (
    <div className="tool-details tool-details-search" data-testid="tool-details" data-kind="search">
      <code>{details.pattern}</code>
      {details.scope ? <span className="tool-details-note">{l10n.t('in {0}', details.scope)}</span> : null}
      {details.matches === undefined ? null : (
        <span className="tool-details-note">{details.matches === 1 ? l10n.t('1 match') : l10n.t('{0} matches', details.matches)}</span>
      )}
    </div>
  );
}
