import type { Mention } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { Icon } from '../../ui/Icon';

export function mentionLabel(mention: Mention): string {
  switch (mention.kind) {
    case 'file':
    case 'folder': {
      const range = mention.range ? `:${mention.range.startLine}-${mention.range.endLine}` : '';
      return `${mention.path}${range}`;
    }
    case 'url':
      return mention.url;
    default:
      return `@${mention.kind}`;
  }
}

export function mentionIcon(mention: Mention): string {
  switch (mention.kind) {
    case 'file':
      return 'file';
    case 'folder':
      return 'folder';
    case 'problems':
      return 'warning';
    case 'selection':
      return 'selection';
    case 'git':
      return 'git-compare';
    case 'terminal':
      return 'terminal';
    case 'url':
      return 'globe';
  }
}

/** An @-mention; clicking a file opens it in the editor. */
export function MentionChip({ mention }: { mention: Mention }) {
  const bridge = useBridge();
  const label = mentionLabel(mention);
  if (mention.kind !== 'file') {
    return (
      <button type="button" className="mention-chip" title={label} disabled>
        <Icon name={mentionIcon(mention)} />
        {label}
      </button>
    );
  }
  return (
    <button type="button" className="mention-chip" title={`Open ${label}`} onClick={() => void bridge.openFile(mention.path, mention.range)}>
      <Icon name="file" />
      {label}
    </button>
  );
}
