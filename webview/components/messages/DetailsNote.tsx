import type { ToolDetailsDisplay } from '../../../src/protocol/toolDisplay';

/** One quiet line in place of details that have nothing to list. */
export function DetailsNote({ kind, text }: { kind: ToolDetailsDisplay['kind']; text: string }) {
  return (
    <div className="tool-details tool-details-note" data-testid="tool-details" data-kind={kind}>
      {text}
    </div>
  );
}
