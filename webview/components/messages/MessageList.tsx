import * as l10n from '@vscode/l10n';
import { useCallback } from 'react';
import { useMessageIds } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { VirtualList } from '../../virtual/VirtualList';
import { MessageView } from './MessageView';

export function MessageList() {
  const ids = useMessageIds();
  const renderRow = useCallback((id: string) => <MessageView id={id} />, []);
  const renderJump = useCallback(
    (jump: () => void) => (
      <div className="jump-to-latest">
        <Button appearance="secondary" onClick={jump} testId="jump-to-latest">
          <Icon name="arrow-down" /> {l10n.t('Jump to latest')}
        </Button>
      </div>
    ),
    [],
  );
  return <VirtualList ids={ids} renderRow={renderRow} renderJumpButton={renderJump} label={l10n.t('Conversation')} />;
}
