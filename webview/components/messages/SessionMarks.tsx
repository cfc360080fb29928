import type { CompactionPart, UiMessage } from '../../../src/protocol/uiMessage';
import { Icon } from '../../ui/Icon';
import { Markdown } from './Markdown';

const REASON: Record<NonNullable<CompactionPart['reason']>, string> = {
  manual: 'you asked (/compact)',
  auto: 'the conversation neared the model’s context window',
  overflow: 'the model said the conversation did not fit its window',
};

/**
 * Where the conversation was compacted: a divider that opens to the summary the model now
 * works from. Messages above it stay visible (and searchable) but are not sent again.
 */
export function CompactionDivider({ message, part }: { message: UiMessage; part: CompactionPart }) {
  const writing = message.status === 'streaming';
  const failed = message.status === 'error';
  const label = writing
    ? 'Summarizing the conversation…'
    : failed
      ? 'Compaction failed'
      : `Conversation compacted: ${part.compactedMessages} earlier message${part.compactedMessages === 1 ? '' : 's'} summarized`;
  return (
    <div className="session-mark compaction-divider" data-testid="compaction-divider" data-status={message.status} role="separator" aria-label={label}>
      <div className="session-mark-line">
        <Icon name={failed ? 'error' : 'fold'} />
        <span className="session-mark-label">{label}</span>
      </div>
      {part.reason && !failed ? <div className="session-mark-detail">because {REASON[part.reason]}</div> : null}
      {failed ? (
        <p className="session-mark-error" role="alert">
          {message.error?.message ?? 'The summary could not be made.'}
        </p>
      ) : null}
      {part.summary ? (
        <details className="compaction-summary" data-testid="compaction-summary">
          <summary>Summary the model continues from</summary>
          <Markdown text={part.summary} streaming={false} />
        </details>
      ) : null}
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
