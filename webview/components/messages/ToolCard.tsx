import * as l10n from '@vscode/l10n';
import { useId, useState } from 'react';
import type { MessageUsage } from '../../../src/protocol/messageUsage';
import type { SubagentView } from '../../../src/protocol/subagentSteps';
import type { ToolDisplay } from '../../../src/protocol/toolDisplay';
import type { AppliedChange, CommandFile, ToolCallState, ToolOutput, ToolProgress } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';
import { Icon } from '../../ui/Icon';
import { usageBrief, usageDetail } from '../footer/usageTotal';
import type { ToolApp } from '../../../src/protocol/mcpApp';
import { AppFrame } from './AppFrame';
import { CommandFiles } from './CommandFiles';
import { RevertAction } from './RevertAction';
import { SubagentSteps } from './SubagentSteps';
import { toolStateDisplay } from './toolCallDisplay';
import { ToolDetails } from './ToolDetails';

export interface ToolCardProps {
  name: string;
  /** How the tool drew the call; left out for a result shown without its call. */
  display?: ToolDisplay | undefined;
  /** Left out for a result shown without its call. */
  input?: unknown;
  state: ToolCallState;
  result: ToolOutput | undefined;
  /** The file change the call applied (offers Undo). */
  change?: AppliedChange | undefined;
  /** While it runs: the tail of what it printed so far. */
  liveOutput?: string | undefined;
  toolCallId?: string | undefined;
  /** The files a command changed (offers a diff per file and Undo). */
  files?: CommandFile[] | undefined;
  moreFiles?: number | undefined;
  /** While it runs: the latest progress it reported. */
  progress?: ToolProgress | undefined;
  /** A task call's subagent and its steps. */
  subagent?: SubagentView | undefined;
  /** A task call: what its subagent used so far. */
  usage?: MessageUsage | undefined;
  /** An MCP tool's app, shown under the header once the call is done. */
  app?: ToolApp | undefined;
}

/** A tool call as one compact line; expanding it shows the input and the (capped) output. */
export function ToolCard({ name, display: look, input, state, result, change, liveOutput, toolCallId, files, moreFiles, progress, subagent, usage, app }: ToolCardProps) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const display = toolStateDisplay(state);
  const title = look?.title ?? name;
  const failed = state === 'error' || result?.isError === true;

  return (
    <div className={`tool-card${failed ? ' tool-card-failed' : ''}`} data-testid="tool-card" data-state={state}>
      <button
        type="button"
        className="tool-card-header"
        aria-expanded={open}
        aria-controls={bodyId}
        title={`${title}: ${display.label}`}
        onClick={() => setOpen(!open)}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        <span className={`tool-card-status tool-state-${state}`} role="img" aria-label={display.label}>
          <Icon name={display.icon} spin={display.spin === true} />
        </span>
        <span className="tool-card-name">{title}</span>
        <span className="tool-card-headline">{look?.summary ?? ''}</span>
        {usage ? (
          <span className="tool-card-usage" data-testid="tool-usage" data-input={usage.inputTokens} data-output={usage.outputTokens} title={usageDetail(usage)}>
            {usageBrief(usage)}
          </span>
        ) : null}
      </button>
      {change ? <AppliedChangeRow change={change} /> : null}
      {files && files.length > 0 && toolCallId ? <CommandFiles toolCallId={toolCallId} files={files} moreFiles={moreFiles} /> : null}
      {!result && progress && state === 'running' ? <ProgressLine progress={progress} /> : null}
      {!result && liveOutput && state === 'running' ? <LiveOutput output={liveOutput} /> : null}
      {app && toolCallId && result && state === 'done' ? <AppFrame toolCallId={toolCallId} app={app} /> : null}
      {open ? (
        <div className="tool-card-body" id={bodyId}>
          {subagent ? <SubagentSteps subagent={subagent} /> : null}
          {look ? (
            <>
              <div className="tool-card-section-title">
                <Icon name={look.icon} /> {l10n.t('Input')}
              </div>
              <ToolDetails details={look.details} />
            </>
          ) : null}
          {input === undefined || look?.details.kind === 'keyValue' ? null : <pre className="tool-card-pre">{JSON.stringify(input, null, 2)}</pre>}
          {result ? (
            <>
              <div className="tool-card-section-title">
                {result.isError ? l10n.t('Error') : l10n.t('Output')}
                {result.truncated ? l10n.t(' (truncated)') : ''}
              </div>
              <pre className="tool-card-pre" data-testid="tool-output">
                {result.output || l10n.t('(no output)')}
              </pre>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** Lines of a running command's output shown on the card; the rest scrolls. */
const LIVE_LINES = 12;

/** A running command's latest output, following the end as it grows. */
function LiveOutput({ output }: { output: string }) {
  const lines = output.replace(/\n$/, '').split('\n');
  const shown = lines.length > LIVE_LINES ? lines.slice(-LIVE_LINES).join('\n') : lines.join('\n');
  return (
    <pre className="tool-card-pre tool-card-live" data-testid="tool-live-output" aria-live="polite">
      {shown}
    </pre>
  );
}

// Built at render time: the page's locale is applied after the modules load.
const changeVerb = (kind: AppliedChange['kind']): string =>
  kind === 'create' ? l10n.t('Created') : kind === 'edit' ? l10n.t('Changed') : l10n.t('Deleted');

/** What the call did to a file, and Undo while that can still be done. */
function AppliedChangeRow({ change }: { change: AppliedChange }) {
  const bridge = useBridge();
  return (
    <div className="tool-card-change" data-testid="applied-change" data-reverted={change.reverted}>
      <span>
        {changeVerb(change.kind)} <span className="approval-card-path">{change.displayPath}</span>
      </span>
      {change.reverted ? (
        <span className="tool-card-change-note" data-testid="change-undone">
          {l10n.t('undone')}
        </span>
      ) : change.undoable ? (
        <RevertAction
          label={l10n.t('Undo')}
          title={l10n.t('Put {0} back as it was before this change', change.displayPath)}
          testId="undo-change"
          run={(force) => bridge.call('change.undo', force ? { changeId: change.id, force } : { changeId: change.id })}
        />
      ) : (
        <span className="tool-card-change-note">{l10n.t('cannot be undone from the chat (the change journal was full)')}</span>
      )}
    </div>
  );
}

/** A running call's latest progress: a bar when it gave a percent, and its message. */
function ProgressLine({ progress }: { progress: ToolProgress }) {
  return (
    <div className="tool-card-progress" data-testid="tool-progress">
      {progress.percent !== undefined ? (
        <progress className="tool-card-progress-bar" max={100} value={progress.percent} aria-label={`${progress.percent}%`} />
      ) : null}
      {progress.percent !== undefined ? <span className="tool-card-progress-percent">{`${progress.percent}%`}</span> : null}
      {progress.message ? <span className="tool-card-progress-message">{progress.message}</span> : null}
    </div>
  );
}
