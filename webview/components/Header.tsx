import * as l10n from '@vscode/l10n';
import { useBridge } from '../bridge/bridgeContext';
import { useMeta } from '../store/storeHooks';
import { Icon } from '../ui/Icon';
import { IconButton } from '../ui/IconButton';
import { ProgressRing } from '../ui/ProgressRing';

export function Header() {
  const bridge = useBridge();
  const title = useMeta((meta) => meta.session.title);
  const running = useMeta((meta) => meta.run.running);
  const mode = useMeta((meta) => meta.run.mode);
  const panel = useMeta((meta) => meta.panel);
  const branch = useMeta((meta) => meta.session.branch);
  return (
    <>
      <header className={branch ? 'header header-with-branch' : 'header'}>
        <span className="header-title" title={title ?? l10n.t('New chat')}>
          {title ?? l10n.t('New chat')}
        </span>
        {mode === 'plan' ? <span className="header-mode">{l10n.t('plan')}</span> : null}
        {running ? <ProgressRing label={l10n.t('Keel is working')} /> : null}
        <span className="header-spacer" />
        {branch ? (
          <>
            <IconButton icon="diff" label={l10n.t('Review changes')} testId="worktree-review" onClick={() => void bridge.call('command.run', { command: 'keel.reviewWorktreeChanges' })} />
            <IconButton icon="git-merge" label={l10n.t('Keep branch')} testId="worktree-keep" onClick={() => void bridge.call('command.run', { command: 'keel.keepWorktreeBranch' })} />
            <IconButton icon="trash" label={l10n.t('Discard worktree')} testId="worktree-discard" onClick={() => void bridge.call('command.run', { command: 'keel.discardWorktree' })} />
          </>
        ) : null}
        <IconButton icon="add" label={l10n.t('New chat')} testId="new-chat" onClick={() => void bridge.newChat()} />
        <IconButton
          icon="history"
          label={panel === 'sessions' ? l10n.t('Back to the chat') : l10n.t('Past chats')}
          testId="show-sessions"
          onClick={() => bridge.showPanel(panel === 'sessions' ? 'chat' : 'sessions')}
        />
      </header>
      {/* A line of its own under the title: next to the title and five buttons the branch would be cut at 200-500 px. */}
      {branch ? (
        <div className="header-branch-row">
          <span className="header-branch" data-testid="worktree-branch" title={l10n.t('This conversation works in a git worktree on the branch {0}', branch)}>
            <Icon name="git-branch" />
            <span className="header-branch-name">{branch}</span>
          </span>
        </div>
      ) : null}
    </>
  );
}
