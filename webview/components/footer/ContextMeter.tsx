import * as l10n from '@vscode/l10n';
import { useMeta } from '../../store/storeHooks';
import { contextUsage } from './contextUsage';

/** How full the context window is: a labelled bar ("Context 42%"); the token counts are in the tooltip. Hidden until known. */
export function ContextMeter() {
  const usage = useMeta((meta) => meta.usage);
  const context = contextUsage(usage);
  // Nothing to show before the first reply says how many tokens are in context: an empty bar
  // with a dash reads as broken, so the meter appears with its first number.
  if (!context) {
    if (usage?.contextTokens === undefined) return null;
    // The model's window is not known (a custom endpoint): the count, without a bar to fill.
    const tokens = new Intl.NumberFormat('en-US').format(usage.contextTokens);
    return (
      <div className="context-meter context-meter-count" data-testid="context-meter" title={l10n.t("{0} tokens in context; this model's context window is not known", tokens)}>
        <span className="context-meter-label">{l10n.t('Context {0} tokens', tokens)}</span>
      </div>
    );
  }
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
