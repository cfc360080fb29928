import type { AgentMode } from '../../../src/protocol/sessionState';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';

const MODES: { mode: AgentMode; label: string; title: string }[] = [
  { mode: 'act', label: 'Act', title: 'Act: Keel may edit files and run commands, with your approval' },
  { mode: 'plan', label: 'Plan', title: 'Plan: Keel reads the workspace and writes a plan; it changes nothing' },
];

/** The Plan/Act switch: the mode the next message is sent in. */
export function ModeSwitch() {
  const bridge = useBridge();
  const mode = useMeta((meta) => meta.run.mode);
  return (
    <div className="mode-switch" role="group" aria-label="Mode" data-testid="mode-switch">
      {MODES.map((m) => (
        <button
          key={m.mode}
          type="button"
          title={m.title}
          aria-pressed={mode === m.mode}
          data-testid={`mode-${m.mode}`}
          onClick={() => {
            if (mode !== m.mode) void bridge.setMode(m.mode);
          }}
        >
          {m.label}
        </button>
      ))}
    </div>
  );
}
