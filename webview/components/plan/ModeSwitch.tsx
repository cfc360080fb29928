import * as l10n from '@vscode/l10n';
import type { AgentMode } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';

// Built at render time: the page's locale is applied after the modules load.
const modes = (): { mode: AgentMode; label: string; title: string }[] => [
  { mode: 'act', label: l10n.t('Act'), title: l10n.t('Act: Keel may edit files and run commands, with your approval') },
  { mode: 'plan', label: l10n.t('Plan'), title: l10n.t('Plan: Keel reads the workspace and writes a plan; it changes nothing') },
];

/** The Plan/Act switch: the mode the next message is sent in. */
export function ModeSwitch() {
  const bridge = useBridge();
  const mode = useMeta((meta) => meta.run.mode);
  return (
    <div className="mode-switch" role="group" aria-label={l10n.t('Mode')} data-testid="mode-switch">
      {modes().map((m) => (
        <button
          key={m.mode}
          type="button"
          title={m.title}
          aria-pressed={mode === m.mode}
          data-testid={`mode-${m.mode}`}
          onClick={() => {
            if (mode !== m.mode) void bridge.call('mode.set', { mode: m.mode });
          }}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
}
