import * as l10n from '@vscode/l10n';
import type { ApprovalMode } from '../../../src/protocol/sessionState';
import { approvalModeSchema } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Select } from '../../ui/Select';

// Built at render time: the page's locale is applied after the modules load.
const labels = (): Record<ApprovalMode, string> => ({
  manual: l10n.t('Ask before edits and commands'),
  autoEdit: l10n.t('Auto-approve edits'),
  yolo: l10n.t('Never ask'),
});

/** How much the agent may do without asking; protected paths always ask, whatever this says. */
export function ApprovalModePicker() {
  const bridge = useBridge();
  const approvalMode = useMeta((meta) => meta.run.approvalMode);
  const label = labels();
  const options = approvalModeSchema.options.map((mode) => ({ value: mode, label: label[mode] }));
  return (
    <Select
      value={approvalMode}
      options={options}
      label={l10n.t('Approval mode')}
      testId="mode-picker"
      onChange={(value) => {
        const parsed = approvalModeSchema.safeParse(value);
        if (parsed.success && parsed.data !== approvalMode) {
          void bridge.call('config.set', { key: 'approvalMode', value: parsed.data });
        }
      }}
    />
  );
}
