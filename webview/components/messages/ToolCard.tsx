import { useId, useState } from 'react';
import type { ToolCallState, ToolOutput } from '../../../src/protocol/uiMessage';
import { Icon } from '../../ui/Icon';
import { TOOL_STATE_DISPLAY, toolCallHeadline } from './toolCallDisplay';

export interface ToolCardProps {
  name: string;
  summary: string;
  /** Left out for a result shown without its call. */
  input?: unknown;
  state: ToolCallState;
  result: ToolOutput | undefined;
}

/** A tool call as one compact line; expanding it shows the input and the (capped) output. */
export function ToolCard({ name, summary, input, state, result }: ToolCardProps) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const display = TOOL_STATE_DISPLAY[state];
  const headline = toolCallHeadline(summary, input);
  const failed = state === 'error' || result?.isError === true;

  return (
    <div className={`tool-card${failed ? ' tool-card-failed' : ''}`} data-testid="tool-card" data-state={state}>
      <button
        type="button"
        className="tool-card-header"
        aria-expanded={open}
        aria-controls={bodyId}
        title={`${name}: ${display.label}`}
        onClick={() => setOpen(!open)}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        <span className={`tool-card-status tool-state-${state}`} role="img" aria-label={display.label}>
          <Icon name={display.icon} spin={display.spin === true} />
        </span>
        <span className="tool-card-name">{name}</span>
        <span className="tool-card-headline">{headline}</span>
      </button>
      {open ? (
        <div className="tool-card-body" id={bodyId}>
          {input === undefined ? null : (
            <>
              <div className="tool-card-section-title">Input</div>
              <pre className="tool-card-pre">{JSON.stringify(input, null, 2)}</pre>
            </>
          )}
          {result ? (
            <>
              <div className="tool-card-section-title">
                {result.isError ? 'Error' : 'Output'}
                {result.truncated ? ' (truncated)' : ''}
              </div>
              <pre className="tool-card-pre" data-testid="tool-output">
                {result.output || '(no output)'}
              </pre>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
