import * as l10n from '@vscode/l10n';
import { useMeta } from '../../store/storeHooks';
import { Icon } from '../../ui/Icon';

/** The model call failed and the host is trying again. */
export function RetryNote() {
  const retry = useMeta((meta) => meta.retry);
  if (!retry) return null;
  return (
    <div className="retry-note" role="status" data-testid="retry-note" title={retry.error}>
      <Icon name="sync" spin /> {l10n.t('Retrying ({0}/{1})…', retry.attempt, retry.maxAttempts)}
    </div>
  );
}
