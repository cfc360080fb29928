import * as l10n from '@vscode/l10n';
import type { CompactionPart, UiMessage } from '../../../src/protocol/uiMessage';
import { UsageLine } from './UsageLine';
import { Icon } from '../../ui/Icon';
import { Markdown } from './Markdown';

// Built at render time: the page's locale is applied after the modules load.
const reasonText = (reason: NonNullable<CompactionPart['reason']>): string =>
  reason === 'manual'
    ? l10n.t('because you asked (/compact)')
    : reason === 'auto'
      ? l10n.t('because the conversation neared the model’s context window')
      : l10n.t('because the model said the conversation did not fit its window');

/**
 * Where the conversation was compacted: a divider that opens to the summary the model now
 * works from. Messages above it stay visible (and searchable) but are not sent again.
 */
export function CompactionDivider({ message, part }: { message: UiMessage; part: CompactionPart }) {
  const writing = message.status === 'streaming';
  const failed = message.status === 'error';
  const label = writing
    ? l10n.t('Summarizing the conversation…')
    : failed
      ? l10n.t('Compaction failed')
      : part.compactedMessages === 1
        ? l10n.t('Conversation compacted: 1 earlier message summarized')
        : l10n.t('Conversation compacted: {0} earlier messages summarized', part.compactedMessages);
  return (
    <div className="session-mark compaction-divider" data-testid="compaction-divider" data-status={message.status} role="separator" aria-label={label}>
      <div className="session-mark-line">
        <Icon name={failed ? 'error' : 'fold'} />
        <span className="session-mark-label">{label}</span>
      </div>
      {part.reason && !failed ? <div className="session-mark-detail">{reasonText(part.reason)}</div> : null}
      {failed ? (
        <p className="session-mark-error" role="alert">
          {message.error?.message ?? l10n.t('The summary could not be made.')}
        </p>
      ) : null}
      {part.summary ? (
        <details className="compaction-summary" data-testid="compaction-summary">
          <summary>{l10n.t('Summary the model continues from')}</summary>
          <Markdown text={part.summary} streaming={false} />
        </details>
      ) : null}
      {message.usage ? <UsageLine usage={message.usage} /> : null}
    </div>
  );
}

/** Keel stopped mid-run here; the model is told the same. */
export function InterruptionNote({ text }: { text: string }) {
  return (
    <div className="session-mark interruption-note" data-testid="interruption-note" role="note">
      <div className="session-mark-line">
        <Icon name="debug-disconnect" />
        <span>{text}</span>
      </div>
    </div>
  );
}
