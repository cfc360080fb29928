import * as l10n from '@vscode/l10n';
import type { ConversationActivity } from '../../../src/protocol/conversationActivity';
import { Icon } from '../../ui/Icon';

const ICONS: Record<ConversationActivity, { icon: string; spin?: boolean }> = {
  running: { icon: 'sync', spin: true },
  approval: { icon: 'bell-dot' },
  queued: { icon: 'clock' },
  finished: { icon: 'check' },
  failed: { icon: 'error' },
};

function label(activity: ConversationActivity): string {
  switch (activity) {
    case 'running':
      return l10n.t('Running');
    case 'approval':
      return l10n.t('Waiting for approval');
    case 'queued':
      return l10n.t('Queued');
    case 'finished':
      return l10n.t('Finished');
    case 'failed':
      return l10n.t('Failed');
  }
}

/** What a conversation of this window is doing, on its row of the sessions list. */
export function SessionActivity({ activity }: { activity: ConversationActivity }) {
  const { icon, spin } = ICONS[activity];
  return (
    <span className={`session-activity session-activity-${activity}`} data-testid="session-activity" data-activity={activity}>
      <Icon name={icon} spin={spin} /> {label(activity)}
    </span>
  );
}
