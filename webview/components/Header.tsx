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
      <span className="header-title" title={title ?? 'New chat'}>
        {title ?? 'New chat'}
      </span>
      {mode === 'plan' ? <span className="header-mode">plan</span> : null}
      {running ? <ProgressRing label="Keel is working" /> : null}
      <span className="header-spacer" />
      <IconButton icon="add" label="New chat" testId="new-chat" onClick={() => void bridge.newChat()} />
      <IconButton
        icon="history"
        label={panel === 'sessions' ? 'Back to the chat' : 'Past chats'}
        testId="show-sessions"
        onClick={() => bridge.showPanel(panel === 'sessions' ? 'chat' : 'sessions')}
      />
    </header>
  );
}
