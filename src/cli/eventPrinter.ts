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
        case 'tool_result':
          return line({
            type: 'tool_result',
            id: e.toolCallId,
            name: e.name,
            isError: e.isError,
            output: e.output,
            ...(e.sandboxed === undefined ? {} : { sandboxed: e.sandboxed }),
          });
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
          if (!e.approved) note(`✗ ${e.name} declined: ${e.reason ?? e.rule}`);
          return;
        case 'tool_result':
          if (e.isError) note(`  ${e.name} error: ${firstLine(e.output)}`);
          return;
        case 'retry':
          return note(`… model request failed (${e.error}); retry ${e.attempt + 1} of ${e.maxAttempts} in ${Math.round(e.delayMs)} ms`);
        case 'context_trimmed':
          return note(
            `… the conversation is too long for the model: trying again without ${e.droppedMessages} older message(s)` +
              `${e.shortenedResults ? ` and with ${e.shortenedResults} long tool result(s) shortened` : ''} (${e.attempt} of ${e.maxAttempts}; the session keeps everything)`,
          );
        case 'rules_fired':
          for (const n of notices(e)) note(`! ${n.text} (rule ${n.rule})`);
          return;
        case 'rule_problems':
          for (const message of e.problems) note(`keel: ${message}`);
          return;
        case 'compaction':
          if (e.phase === 'start') return note('… summarizing the older part of the conversation to fit the context window');
          if (e.phase === 'failed') return note(`… ${e.error}`);
          return note(`… compacted: ${e.compactedMessages} older message(s) summarized (about ${e.tokensBefore} → ${e.tokensAfter} tokens; the session keeps everything)`);
        default:
          return;
      }
    },
    result(r) {
      if (!atLineStart) out('\n');
      const tokens = `${r.usage.inputTokens} in / ${r.usage.outputTokens} out tokens`;
      if (r.status === 'completed') err(`— done in ${r.turns} turn(s), ${tokens}; session ${r.sessionId}\n`);
      else if (r.status === 'max_turns') err(`— stopped: reached the turn cap (${r.turns}); session ${r.sessionId}\n`);
      else if (r.status === 'cancelled') err(`— cancelled; partial output kept in session ${r.sessionId}\n`);
      else err(`— failed: ${r.error?.message ?? 'unknown error'}; session ${r.sessionId}\n`);
    },
    error(code, message) {
      note(`keel: ${message} (${code})`);
    },
    // The host's log already put the warning on stderr: the text output says it once.
    warning() {},
  };
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
