import * as l10n from '@vscode/l10n';
import { useBridge } from '../bridge/bridgeContext';
import { useMeta } from '../store/storeHooks';
import { IconButton } from '../ui/IconButton';
import { ProgressRing } from '../ui/ProgressRing';

export function Header() {
  const bridge = useBridge();
  const title = useMeta((meta) => meta.session.title);
  const running = useMeta((meta) => meta.run.running);
  const mode = useMeta((meta) => meta.run.mode);
  const panel = useMeta((meta) => meta.panel);
  return (
    <header className="header">
      <span className="header-title" title={title ?? l10n.t('New chat')}>
        {title ?? l10n.t('New chat')}
      </span>
      {mode === 'plan' ? <span className="header-mode">{l10n.t('plan')}</span> : null}
      {running ? <ProgressRing label={l10n.t('Keel is working')} /> : null}
      <span className="header-spacer" />
      <IconButton icon="add" label={l10n.t('New chat')} testId="new-chat" onClick={() => void bridge.newChat()} />
      <IconButton
        icon="history"
        label={panel === 'sessions' ? l10n.t('Back to the chat') : l10n.t('Past chats')}
        testId="show-sessions"
        onClick={() => bridge.showPanel(panel === 'sessions' ? 'chat' : 'sessions')}
      />
    </header>
  );
}
