import * as l10n from '@vscode/l10n';
import { usageText } from '../core/session';
import type { ProjectEvent, RunResult } from '../core/projectTypes';

export interface Printer {
  event(e: ProjectEvent): void;
  result(r: RunResult): void;
  error(code: string, message: string): void;
  /** A problem that did not stop the run (an ignored workspace setting). */
  warning(message: string): void;
}

type Write = (s: string) => void;

/** One JSON object per line on stdout, in the documented stream-json shape. */
export function streamJsonPrinter(out: Write): Printer {
  const line = (o: Record<string, unknown>) => out(`${JSON.stringify(o)}\n`);
  // A command's changes are known just before its result, which carries them; a background
  // job's come when it ends, after its result: then they are a line of their own.
  const changes = new Map<string, ReturnType<typeof changeList>>();
  const resulted = new Set<string>();
  return {
    event(e) {
      switch (e.type) {
        case 'text_delta':
          return line({ type: 'text_delta', text: e.text });
        case 'reasoning_delta':
          return line({ type: 'reasoning_delta', text: e.text });
        case 'tool_use':
          return line({ type: 'tool_use', id: e.toolCallId, name: e.name, input: e.input });
        case 'approval':
          return line({ type: 'approval', id: e.toolCallId, name: e.name, category: e.category, approved: e.approved, reason: e.reason ?? e.rule });
        case 'command_changes':
          if (e.warning) line({ type: 'warning', message: e.warning });
          if (resulted.has(e.toolCallId)) return e.changes.length ? line({ type: 'command_changes', id: e.toolCallId, changes: changeList(e.changes) }) : undefined;
          changes.set(e.toolCallId, changeList(e.changes));
          return;
        case 'tool_result': {
          const changed = changes.get(e.toolCallId);
          changes.delete(e.toolCallId);
          resulted.add(e.toolCallId);
          return line({
            type: 'tool_result',
            id: e.toolCallId,
            name: e.name,
            isError: e.isError,
            output: e.output,
            ...(e.sandboxed === undefined ? {} : { sandboxed: e.sandboxed }),
            ...(changed ? { changes: changed } : {}),
          });
        }
        case 'tool_progress':
          return line({ type: 'tool_progress', id: e.toolCallId, ...e.progress });
        case 'retry':
          return line({ type: 'retry', attempt: e.attempt, error: e.error, delayMs: e.delayMs });
        case 'context_trimmed':
          return line({ type: 'context_trimmed', attempt: e.attempt, droppedMessages: e.droppedMessages, shortenedResults: e.shortenedResults });
        case 'rules_fired':
          line({ type: 'rules', event: e.event, ...(e.toolCallId ? { id: e.toolCallId } : {}), fired: e.fired });
          for (const n of notices(e)) line({ type: 'notify', rule: n.rule, text: n.text });
          return;
        case 'rule_problems':
          for (const message of e.problems) line({ type: 'warning', message });
          return;
        case 'subagent':
          return line({ type: 'subagent', parent: e.parentToolCallId, agent: e.agent, step: e.step });
        case 'subagent_usage':
          return line({ type: 'subagent_usage', parent: e.parentToolCallId, usage: e.usage });
        case 'compaction':
          if (e.phase === 'start') return line({ type: 'compaction', phase: 'start', reason: e.reason });
          if (e.phase === 'failed') return line({ type: 'compaction', phase: 'failed', reason: e.reason, error: e.error });
          return line({ type: 'compaction', phase: 'done', reason: e.reason, compactedMessages: e.compactedMessages, tokensBefore: e.tokensBefore, tokensAfter: e.tokensAfter, summary: e.summary });
        default:
          return;
      }
    },
    result(r) {
      line({
        type: 'result',
        success: r.status === 'completed',
        status: r.status,
        sessionId: r.sessionId,
        turns: r.turns,
        usage: r.usage,
        text: r.text,
      });
    },
    error(code, message) {
      line({ type: 'error', code, message });
    },
    warning(message) {
      line({ type: 'warning', message });
    },
  };
}

/** Streams the answer to stdout and narrates tools on stderr, so stdout stays the answer. */
export function textPrinter(out: Write, err: Write): Printer {
  let atLineStart = true;
  const text = (s: string) => {
    if (!s) return;
    out(s);
    atLineStart = s.endsWith('\n');
  };
  const note = (s: string) => {
    if (!atLineStart) {
      out('\n');
      atLineStart = true;
    }
    err(`${s}\n`);
  };
  return {
    event(e) {
      switch (e.type) {
        case 'text_delta':
          return text(e.text);
        case 'tool_use':
          return note(`▸ ${e.name} ${summarize(e.input)}`);
        case 'approval':
          if (!e.approved) note(`✗ ${l10n.t('{0} declined: {1}', e.name, e.reason ?? e.rule ?? '')}`);
          return;
        case 'tool_result':
          if (e.isError) note(`  ${l10n.t('{0} error: {1}', e.name, firstLine(e.output))}`);
          return;
        case 'tool_progress': {
          const { percent, message } = e.progress;
          const said = [percent !== undefined ? `${percent}%` : '', message ?? ''].filter(Boolean).join(' ');
          return said ? note(`  … ${said}`) : undefined;
        }
        case 'command_changes':
          if (e.changes.length) note(`  changed: ${e.changes.map((c) => `${c.kind === 'added' ? '+' : c.kind === 'deleted' ? '-' : '~'}${c.displayPath}`).join(' ')}`);
          if (e.warning) note(`keel: ${e.warning}`);
          return;
        case 'retry':
          return note(`… ${l10n.t('model request failed ({0}); retry {1} of {2} in {3} ms', e.error, e.attempt + 1, e.maxAttempts, Math.round(e.delayMs))}`);
        case 'context_trimmed':
          return note(
            `… ${l10n.t(
              'the conversation is too long for the model: trying again without {0} older message(s){1} ({2} of {3}; the session keeps everything)',
              e.droppedMessages,
              e.shortenedResults ? l10n.t(' and with {0} long tool result(s) shortened', e.shortenedResults) : '',
              e.attempt,
              e.maxAttempts,
            )}`,
          );
        case 'rules_fired':
          for (const n of notices(e)) note(`! ${l10n.t('{0} (rule {1})', n.text, n.rule)}`);
          return;
        case 'rule_problems':
          for (const message of e.problems) note(`keel: ${message}`);
          return;
        case 'compaction':
          if (e.phase === 'start') return note(`… ${l10n.t('summarizing the older part of the conversation to fit the context window')}`);
          if (e.phase === 'failed') return note(`… ${e.error}`);
          return note(`… ${l10n.t('compacted: {0} older message(s) summarized (about {1} → {2} tokens; the session keeps everything)', e.compactedMessages, e.tokensBefore, e.tokensAfter)}`);
        default:
          return;
      }
    },
    result(r) {
      if (!atLineStart) out('\n');
      const tokens = usageText(r.usage);
      if (r.status === 'completed') err(`— ${l10n.t('done in {0} turn(s), {1}; session {2}', r.turns, tokens, r.sessionId)}\n`);
      else if (r.status === 'max_turns') err(`— ${l10n.t('stopped: reached the turn cap ({0}); session {1}', r.turns, r.sessionId)}\n`);
      else if (r.status === 'cancelled') err(`— ${l10n.t('cancelled; partial output kept in session {0}', r.sessionId)}\n`);
      else err(`— ${l10n.t('failed: {0}; session {1}', r.error?.message ?? l10n.t('unknown error'), r.sessionId)}\n`);
    },
    error(code, message) {
      note(`keel: ${message} (${code})`);
    },
    // The host's log already put the warning on stderr: the text output says it once.
    warning() {},
  };
}

/** A command's changes as stream-json shows them. */
function changeList(changes: Extract<ProjectEvent, { type: 'command_changes' }>['changes']) {
  return changes.map((c) => ({
    path: c.displayPath,
    kind: c.kind,
    ...(c.added !== undefined ? { added: c.added, removed: c.removed } : {}),
    ...(c.unkept ? { restorable: false } : {}),
  }));
}

/** What the rules that fired want the person to see. */
function notices(e: Extract<ProjectEvent, { type: 'rules_fired' }>): Array<{ rule: string; text: string }> {
  return e.fired.flatMap((f) => f.actions.filter((a) => a.type === 'notify').map((a) => ({ rule: f.id, text: a.text })));
}

function firstLine(s: string): string {
  const l = s.split('\n', 1)[0];
  return l.length > 200 ? `${l.slice(0, 200)}…` : l;
}

function summarize(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const o = input as Record<string, unknown>;
  const key = o.command ?? o.file_path ?? o.path ?? o.pattern ?? o.url;
  return typeof key === 'string' ? firstLine(key) : '';
}
