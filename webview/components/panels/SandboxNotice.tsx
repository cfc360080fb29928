import * as l10n from '@vscode/l10n';
import { useState } from 'react';
import { useMeta } from '../../store/storeHooks';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';

/**
 * Which of the OS sandbox's protections commands run without here (no bubblewrap, the setting
 * off, Seatbelt untested, no seccomp filter), as the host words it. Dismissed for this view only:
 * it comes back when the view is opened again, since nothing about the machine changed.
 */
export function SandboxNotice() {
  const text = useMeta((meta) => meta.config.sandbox);
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  if (!text || dismissed === text) return null;
  return (
    <div className="banner banner-warning config-notice" role="status" data-testid="sandbox-notice">
      <Icon name="shield" />
      <span className="banner-text">{l10n.t('Commands are not fully confined. {0}', text)}</span>
      <Button appearance="secondary" testId="sandbox-notice-dismiss" onClick={() => setDismissed(text)}>
        {l10n.t('Dismiss')}
      </Button>
    </div>
  );
}
