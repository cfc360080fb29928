import * as l10n from '@vscode/l10n';
import type { ToolDetailsOf } from '../../../src/protocol/toolDisplay';
import { DetailsNote } from './DetailsNote';

/** A call's arguments, one row each: the card of every tool that draws nothing of its own. */
export function KeyValueDetails({ details }: { details: ToolDetailsOf<'keyValue'> }) {
  if (details.entries.length === 0) return <DetailsNote kind="keyValue" text={l10n.t('(no arguments)')} />;
  return (
    <dl className="tool-details tool-details-kv" data-testid="tool-details" data-kind="keyValue">
      {details.entries.map((entry) => (
        <div key={entry.key} className="tool-details-row">
          <dt>{entry.key}</dt>
          <dd>{entry.value}</dd>
        </div>
      ))}
    </dl>
  );
}
