import type { Mention } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { Icon } from '../../ui/Icon';

export function mentionLabel(mention: Mention): string {
  const range = mention.range ? `:${mention.range.startLine}-${mention.range.endLine}` : '';
  return `${mention.path}${range}`;
}

/** An @-mentioned file or folder; clicking a file opens it in the editor. */
export function MentionChip({ mention }: { mention: Mention }) {
  const bridge = useBridge();
  const label = mentionLabel(mention);
  return (
    <button
      type="button"
      className="mention-chip"
      title={mention.kind === 'file' ? `Open ${label}` : label}
      disabled={mention.kind !== 'file'}
      onClick={() => void bridge.openFile(mention.path, mention.range)}
    >
      <Icon name={mention.kind === 'file' ? 'file' : 'folder'} />
      {label}
    </button>
  );
}
