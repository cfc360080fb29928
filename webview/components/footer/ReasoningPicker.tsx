import * as l10n from '@vscode/l10n';
import type { ReasoningChoiceValue } from '../../../src/protocol/sessionState';
import { reasoningChoiceSchema } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Select } from '../../ui/Select';

// Built at render time: the page's locale is applied after the modules load.
const labels = (): Record<ReasoningChoiceValue, string> => ({
  default: l10n.t('Reasoning: default'),
  off: l10n.t('Reasoning: off'),
  minimal: l10n.t('Reasoning: minimal'),
  low: l10n.t('Reasoning: low'),
  medium: l10n.t('Reasoning: medium'),
  high: l10n.t('Reasoning: high'),
});

/**
 * How much the model in use reasons (effort or thinking budget), where it takes a choice. The
 * choice is the person's for that model (their user settings), and applies from the next request.
 */
export function ReasoningPicker() {
  const bridge = useBridge();
  const reasoning = useMeta((meta) => meta.run.reasoning);
  if (!reasoning) return null;
  const label = labels();
  const options = (['default', ...reasoning.levels] as const).map((value) => ({ value, label: label[value] }));
  return (
    <Select
      value={reasoning.value}
      options={options}
      label={l10n.t('{0}, for {1}', label[reasoning.value], reasoning.model)}
      testId="reasoning-picker"
      onChange={(value) => {
        const parsed = reasoningChoiceSchema.safeParse(value);
        if (parsed.success && parsed.data !== reasoning.value) {
          void bridge.call('config.set', { key: 'reasoning', model: reasoning.model, value: parsed.data });
        }
      }}
    />
  );
}
