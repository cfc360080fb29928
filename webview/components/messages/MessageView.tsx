import * as l10n from '@vscode/l10n';
import { memo, useCallback, useState, useSyncExternalStore } from 'react';
import type { UiMessage, UiPart } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { useStore } from '../../store/storeContext';
import { useMessage } from '../../store/storeHooks';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { FiredRules } from './FiredRules';
import { McpRequestCard } from '../mcp/McpRequestCard';
import { Markdown } from './Markdown';
import { MentionChip } from './MentionChip';
import { BranchSwitcher, EditResendBox, EditResendButton } from './PromptBranches';
import { RevertAction } from './RevertAction';
import { ToolCard } from './ToolCard';
import { UsageLine } from './UsageLine';
import { CompactionDivider, InterruptionNote } from './SessionMarks';

// Built at render time: the page's locale is applied after the modules load.
const roleLabel = (role: UiMessage['role']): string =>
  role === 'user' ? l10n.t('You') : role === 'assistant' ? 'Keel' : role === 'tool' ? l10n.t('Tool') : l10n.t('System');

/** One message, subscribed to by id: a delta for it re-renders this row and nothing else. */
export const MessageView = memo(function MessageView({ id }: { id: string }) {
  const message = useMessage(id);
  const isLast = useIsLastMessage(id);
  const [editing, setEditing] = useState(false);
  if (!message) return null;
  const { role, status, parts } = message;
  const streaming = status === 'streaming';
  const mark = parts[0];
  if (mark?.type === 'compaction') return <CompactionDivider message={message} part={mark} />;
  if (mark?.type === 'interruption') return <InterruptionNote text={mark.text} />;

  return (
    <article
      className={`message message-${role}`}
      data-testid="message"
      data-role={role}
      data-status={status}
      aria-busy={streaming}
    >
      <header className="message-header">
        <span className="message-author">{roleLabel(role)}</span>
        {status === 'queued' ? <Badge title={l10n.t('Sent when the current run finishes')}>{l10n.t('queued')}</Badge> : null}
        {status === 'cancelled' ? <span className="message-note">{l10n.t('stopped')}</span> : null}
        {message.branch ? <BranchSwitcher message={message} /> : null}
        {role === 'user' && status !== 'queued' ? <RestoreFiles messageId={id} onEdit={() => setEditing(true)} /> : null}
      </header>
      {editing ? <EditResendBox message={message} onDone={() => setEditing(false)} /> : null}
      <div className="message-body" hidden={editing}>
        {parts.map((part, index) => (
          <PartView
            key={partKey(part, index)}
            part={part}
            role={role}
            streaming={streaming && index === parts.length - 1}
          />
        ))}
      </div>
      {message.rules?.length ? <FiredRules rules={message.rules} /> : null}
      {message.usage ? <UsageLine usage={message.usage} /> : null}
      {status === 'error' ? <MessageError message={message} offerRetry={isLast} /> : null}
    </article>
  );
});

function partKey(part: UiPart, index: number): string {
  if (part.type === 'mcpRequest') return part.requestId;
  return part.type === 'toolCall' || part.type === 'toolResult' ? part.toolCallId : `${part.type}-${index}`;
}

function PartView({ part, role, streaming }: { part: UiPart; role: UiMessage['role']; streaming: boolean }) {
  switch (part.type) {
    case 'text':
      // What the person typed is shown as typed; only model output is markdown.
      return role === 'user' ? (
        <p className="message-plain">{part.text}</p>
      ) : (
        <Markdown text={part.text} streaming={streaming} />
      );
    case 'reasoning':
      return (
        <details className="message-reasoning">
          <summary>{streaming ? l10n.t('Thinking…') : l10n.t('Thought')}</summary>
          <Markdown text={part.text} streaming={streaming} />
        </details>
      );
    case 'image':
      return part.data ? (
        <img className="message-image" src={`data:${part.mediaType};base64,${part.data}`} alt={l10n.t('Attached image')} />
      ) : (
        <span className="message-image-missing">
          <Icon name="file-media" /> {l10n.t('image')}
        </span>
      );
    case 'mention':
      return <MentionChip mention={part.mention} note={part.note} />;
    case 'toolCall':
      return (
        <ToolCard
          name={part.name}
          display={part.display}
          input={part.input}
          state={part.state}
          result={part.result}
          change={part.change}
          toolCallId={part.toolCallId}
          files={part.files}
          moreFiles={part.moreFiles}
          liveOutput={part.liveOutput}
          progress={part.progress}
          subagent={part.subagent}
          usage={part.usage}
          app={part.app}
        />
      );
    case 'toolResult':
      return (
        <ToolCard
          name={part.name}
          state={part.isError ? 'error' : 'done'}
          result={{ output: part.output, isError: part.isError, truncated: part.truncated }}
        />
      );
    case 'planExecution':
      return (
        <div className="plan-execution" data-testid="plan-execution">
          <p className="message-plain">
            <Icon name="checklist" /> {l10n.t('Executing plan:')} <strong>{part.title}</strong>
          </p>
          <details className="plan-execution-plan">
            <summary>{l10n.t('The plan')}</summary>
            <Markdown text={part.plan} streaming={false} />
          </details>
        </div>
      );
    case 'mcpRequest':
      return <McpRequestCard part={part} />;
    case 'compaction':
    case 'interruption':
      // Shown as a whole message of their own (see MessageView).
      return null;
  }
}

/** "Restore files to here": every file Keel changed from this message on goes back (shown on hover). */
function RestoreFiles({ messageId, onEdit }: { messageId: string; onEdit: () => void }) {
  const bridge = useBridge();
  return (
    <span className="message-actions">
      <EditResendButton onEdit={onEdit} />
      <RevertAction
        label={l10n.t('Restore files to here')}
        title={l10n.t('Put back every file Keel changed from this message on, as it was when you sent it')}
        testId="restore-files"
        run={(force) => bridge.call('changes.restore', force ? { messageId, force } : { messageId })}
      />
    </span>
  );
}

function MessageError({ message, offerRetry }: { message: UiMessage; offerRetry: boolean }) {
  const bridge = useBridge();
  return (
    <div className="message-error" role="alert">
      <Icon name="error" />
      <span className="message-error-text">{message.error?.message ?? l10n.t('This reply failed.')}</span>
      {offerRetry ? (
        <Button appearance="secondary" testId="retry" onClick={() => void bridge.retryLast()}>
          {l10n.t('Retry')}
        </Button>
      ) : null}
    </div>
  );
}

/** A boolean selector: the row re-renders only when it becomes or stops being the last. */
function useIsLastMessage(id: string): boolean {
  const store = useStore();
  const read = useCallback(() => store.getIds().at(-1) === id, [store, id]);
  return useSyncExternalStore(store.subscribeIds, read);
}
