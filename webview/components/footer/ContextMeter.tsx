import * as l10n from '@vscode/l10n';
import { useMeta } from '../../store/storeHooks';
import { contextUsage } from './contextUsage';

/** How full the context window is: a labelled bar ("Context 42%"); the token counts are in the tooltip. Hidden until known. */
export function ContextMeter() {
  const usage = useMeta((meta) => meta.usage);
  const context = contextUsage(usage);
  // Nothing to show before the first reply says how much of the window is used: an empty bar
  // with a dash reads as broken, so the meter appears with its first number.
  if (!context) return null;
  const level = context.fraction >= 0.9 ? 'high' : context.fraction >= 0.7 ? 'medium' : 'low';
  return (
    <div
      className={`context-meter context-meter-${level}`}
      data-testid="context-meter"
      role="meter"
      aria-label={l10n.t('Context window use')}
      aria-valuemin={0}
      aria-valuemax={context.window}
      aria-valuenow={context.used}
      aria-valuetext={context.text}
      title={context.text}
    >
      <span className="context-meter-label" aria-hidden="true">
        {l10n.t('Context {0}%', Math.round(context.fraction * 100))}
      </span>
      <div className="context-meter-bar">
        <div className="context-meter-fill" style={{ width: `${(context.fraction * 100).toFixed(1)}%` }} />
      </div>
    </div>
  );
}
