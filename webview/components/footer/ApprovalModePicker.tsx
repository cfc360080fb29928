import type { ApprovalMode } from '../../../src/protocol/sessionState';
import { approvalModeSchema } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Select } from '../../ui/Select';

const LABELS: Record<ApprovalMode, string> = {
  manual: 'Ask before edits and commands',
  autoEdit: 'Auto-approve edits',
  yolo: 'Never ask',
};

const OPTIONS = approvalModeSchema.options.map((mode) => ({ value: mode, label: LABELS[mode] }));

/** How much the agent may do without asking; protected paths always ask, whatever this says. */
export function ApprovalModePicker() {
  const bridge = useBridge();
  const approvalMode = useMeta((meta) => meta.run.approvalMode);
  return (
    <Select
      value={approvalMode}
      options={OPTIONS}
      label="Approval mode"
      testId="mode-picker"
      onChange={(value) => {
        const parsed = approvalModeSchema.safeParse(value);
        if (parsed.success && parsed.data !== approvalMode) {
          void bridge.setConfig({ key: 'approvalMode', value: parsed.data });
        }
      }}
    />
  );
}
