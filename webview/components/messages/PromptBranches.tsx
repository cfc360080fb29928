import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { messageText } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { IconButton } from '../../ui/IconButton';
import { TextArea } from '../../ui/TextArea';

/** "‹ 2/3 ›" on a prompt that was edited and resent: which version this branch shows, and the way to the others. */
export function BranchSwitcher({ message }: { message: UiMessage }) {
  const bridge = useBridge();
  const running = useMeta((meta) => meta.run.running);
  const branch = message.branch;
  if (!branch) return null;
  const go = (index: number): void => void bridge.call('session.switchBranch', { messageId: message.id, index });
  return (
    <span className="branch-switcher" data-testid="branch-switcher">
      <IconButton icon="chevron-left" label={l10n.t('Previous version')} testId="branch-prev" disabled={running || branch.index <= 1} onClick={() => go(branch.index - 1)} />
      <span className="branch-label" data-testid="branch-label" title={l10n.t('Versions of this message: each one continues its own conversation')}>
        {l10n.t('branch {0}/{1}', branch.index, branch.count)}
      </span>
      <IconButton icon="chevron-right" label={l10n.t('Next version')} testId="branch-next" disabled={running || branch.index >= branch.count} onClick={() => go(branch.index + 1)} />
    </span>
  );
}

/** The pencil on a sent prompt: edit the text and send it as a new branch from that point. */
export function EditResendButton({ onEdit }: { onEdit: () => void }) {
  const running = useMeta((meta) => meta.run.running);
  return <IconButton icon="edit" label={l10n.t('Edit and resend')} testId="edit-resend" disabled={running} onClick={onEdit} />;
}

/** The editor that takes the place of a prompt's text while it is being edited. */
export function EditResendBox({ message, onDone }: { message: UiMessage; onDone: () => void }) {
  const bridge = useBridge();
  const [text, setText] = useState(() => messageText(message));
  const send = (): void => {
    if (!text.trim()) return;
    onDone();
    void bridge.call('session.editAndResend', { messageId: message.id, text });
  };
  return (
    <div className="edit-resend" data-testid="edit-resend-box">
      <TextArea
        value={text}
        onChange={(value) => setText(value)}
        label={l10n.t('Edit the message')}
        testId="edit-resend-input"
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          } else if (event.key === 'Escape') onDone();
        }}
      />
      <div className="edit-resend-buttons">
        <Button onClick={send} disabled={!text.trim()} testId="edit-resend-send" title={l10n.t('Starts a new branch from here; the earlier one stays reachable')}>
          {l10n.t('Send')}
        </Button>
        <Button appearance="secondary" onClick={onDone} testId="edit-resend-cancel">
          {l10n.t('Cancel')}
        </Button>
      </div>
    </div>
  );
}
