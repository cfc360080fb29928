import * as l10n from '@vscode/l10n';
import type { MessageUsage } from '../../../src/protocol/messageUsage';
import { usageDetail, usageLine } from '../footer/usageTotal';

/** What the model calls behind a message used and cost, on a quiet line under it; every count in the tooltip. */
export function UsageLine({ usage }: { usage: MessageUsage }) {
  const detail = usageDetail(usage);
  return (
    <div
      className="message-usage"
      role="note"
      data-testid="message-usage"
      data-input={usage.inputTokens}
      data-output={usage.outputTokens}
      {...(usage.costUsd !== undefined ? { 'data-cost': usage.costUsd } : {})}
      title={detail}
      aria-label={l10n.t('Usage of this message: {0}', detail)}
    >
      {usageLine(usage)}
    </div>
  );
}
