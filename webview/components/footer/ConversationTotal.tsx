import * as l10n from '@vscode/l10n';
import { useMeta } from '../../store/storeHooks';
import { conversationTotal } from './usageTotal';

/** The conversation's cost so far (or its tokens when the price is unknown); every count in the tooltip. */
export function ConversationTotal() {
  const usage = useMeta((meta) => meta.usage);
  const total = conversationTotal(usage);
  if (!total) return null;
  return (
    <span className="conversation-total" data-testid="conversation-total" title={total.detail} aria-label={l10n.t('Conversation usage: {0}', total.detail)}>
      {total.label}
    </span>
  );
}
