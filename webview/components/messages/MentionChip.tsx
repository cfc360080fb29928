import * as l10n from '@vscode/l10n';
import type { Mention, MentionNote } from '../../../src/protocol/uiMessage';
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
    case 'git':
      return mention.base ? `@git:${mention.base}...HEAD` : '@git';
    case 'resource':
      return `@${mention.server}:${mention.uri}`;
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
    case 'resource':
      return 'plug';
  }
}

// Built at render time: the page's locale is applied after the modules load.
const noteBadge = (status: MentionNote['status']): string =>
  status === 'cut' ? l10n.t('cut') : status === 'omitted' ? l10n.t('not attached') : l10n.t('failed');

/** Says on the chip that the model got the mention cut short, or not at all; the note is its tooltip. */
function NoteBadge({ note }: { note: MentionNote }) {
  return (
    <span className={`mention-chip-note mention-chip-note-${note.status}`} aria-label={note.text}>
      <Icon name={note.status === 'cut' ? 'ellipsis' : 'warning'} />
      {noteBadge(note.status)}
    </span>
  );
}

/** An @-mention; clicking a file opens it in the editor. A note says when it was cut or left out. */
export function MentionChip({ mention, note }: { mention: Mention; note?: MentionNote | undefined }) {
  const bridge = useBridge();
  const label = mentionLabel(mention);
  const noted = (title: string) => (note ? `${title}\n${note.text}` : title);
  if (mention.kind !== 'file') {
    return (
      <button type="button" className="mention-chip" title={noted(label)} disabled>
        <Icon name={mentionIcon(mention)} />
        {label}
        {note && <NoteBadge note={note} />}
      </button>
    );
  }
  return (
    <button type="button" className="mention-chip" title={noted(l10n.t('Open {0}', label))} onClick={() => void bridge.call('file.open', mention.range ? { path: mention.path, range: mention.range } : { path: mention.path })}>
      <Icon name="file" />
      {label}
      {note && <NoteBadge note={note} />}
    </button>
  );
}
