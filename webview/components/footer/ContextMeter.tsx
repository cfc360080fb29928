import * as l10n from '@vscode/l10n';
import { useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Usage } from '../../../src/protocol/sessionState';
import { useMeta } from '../../store/storeHooks';
import { Icon } from '../../ui/Icon';
import { compactionText, contextPartRows, contextUsage } from './contextUsage';

/**
 * How full the context window is: a labelled bar ("Context 42%"); the token counts are in the
 * tooltip, and a button next to it opens what fills the window and how close compaction is.
 * Hidden until known.
 */
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
      <div className="context-meter context-meter-count">
        <div data-testid="context-meter" title={l10n.t("{0} tokens in context; this model's context window is not known", tokens)}>
          <span className="context-meter-label">{l10n.t('Context {0} tokens', tokens)}</span>
        </div>
        <ContextBreakdown usage={usage} />
      </div>
    );
  }
  const level = context.fraction >= 0.9 ? 'high' : context.fraction >= 0.7 ? 'medium' : 'low';
  return (
    <div className={`context-meter context-meter-${level}`}>
      <div
        className="context-meter-gauge"
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
      <ContextBreakdown usage={usage!} />
    </div>
  );
}

/** A button that opens the window's parts (largest first) and the compaction size; Escape closes it. */
function ContextBreakdown({ usage }: { usage: Usage }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const rows = contextPartRows(usage);
  const compaction = compactionText(usage);
  if (!rows && !compaction) return null;
  const close = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };
  return (
    <span className="context-breakdown" onKeyDown={close}>
      <button
        ref={button}
        type="button"
        className="context-breakdown-toggle"
        data-testid="context-breakdown-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={l10n.t('What fills the context window')}
        title={l10n.t('What fills the context window')}
        onClick={() => setOpen(!open)}
      >
        <Icon name="info" />
      </button>
      <div id={panelId} className="context-breakdown-panel" data-testid="context-breakdown" role="group" aria-label={l10n.t('What fills the context window')} hidden={!open}>
        {rows ? (
          <ul className="context-breakdown-parts">
            {rows.map((row) => (
              <li key={row.key} data-testid="context-part" data-part={row.key} data-tokens={row.tokens}>
                {row.text}
              </li>
            ))}
          </ul>
        ) : null}
        {compaction ? <p className="context-breakdown-compaction" data-testid="context-compaction">{compaction}</p> : null}
      </div>
    </span>
  );
}
