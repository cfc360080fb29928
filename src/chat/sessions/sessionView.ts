import * as l10n from '@vscode/l10n';
import type { Session, SessionEntry } from '../../core/session';
import type { SessionInfo, Usage } from '../../protocol/sessionState';
import type { UiMessage } from '../../protocol/uiMessage';
import { entriesToUiMessages } from '../conversations/uiMessages';

export interface ConversationView {
  messages: UiMessage[];
  info: SessionInfo;
  usage: Usage | null;
  /** Messages before the first one in `messages`, left out of a long conversation. */
  earlier: number;
}

/**
 * How much of a long conversation a resume shows at first: enough to read back a good while,
 * small enough that the view draws it at once. The rest comes on request (session.loadEarlier).
 */
export const RESUME_WINDOW = 300;

/**
 * A session's active branch as the view shows it, with "version n of m" on edited prompts.
 * With `window`, only about the last `window` messages, starting at a prompt of the person's.
 */
export function conversationView(session: Session, window = Number.POSITIVE_INFINITY): ConversationView {
  const points = session.branchPoints();
  const entries = session.entries();
  // Tool results fold into their call's card: count shown rows, and convert only the window.
  const shown = (e: SessionEntry): boolean => e.kind === 'compaction' || e.message.role !== 'tool';
  let start = 0;
  let earlier = 0;
  if (entries.length > window) {
    let rows = 0;
    start = entries.length;
    while (start > 0 && rows < window) if (shown(entries[--start]!)) rows++;
    while (start < entries.length - 1 && !isPrompt(entries[start]!)) start++;
    for (let i = 0; i < start; i++) if (shown(entries[i]!)) earlier++;
  }
  const messages = entriesToUiMessages(start > 0 ? entries.slice(start) : entries);
  for (let i = 0; i < messages.length; i++) {
    const usage = session.messageUsage(messages[i]!.id);
    if (usage) messages[i] = { ...messages[i]!, usage };
  }
  if (points.size > 0) {
    for (let i = 0; i < messages.length; i++) {
      const point = points.get(messages[i]!.id);
      if (point) messages[i] = { ...messages[i]!, branch: { index: point.index, count: point.count } };
    }
  }
  const totals = session.usageTotals();
  const info: SessionInfo = { id: session.id, title: session.summary().title || null };
  if (session.readOnly) info.readOnly = session.readOnlyReason ?? l10n.t('it was opened read-only');
  const worktree = session.config().worktree;
  if (worktree) info.branch = worktree.branch;
  return {
    messages,
    info,
    usage: totals.inputTokens + totals.outputTokens > 0 ? totals : null,
    earlier,
  };
}

/** The text of a user message as the person typed it (for the first prompt of a generated title). */
export function firstExchange(session: Session): { prompt: string; reply: string } | undefined {
  let prompt: string | undefined;
  for (const entry of session.entries()) {
    if (entry.kind !== 'message') continue;
    const { message } = entry;
    const text = typeof message.content === 'string'
      ? message.content
      : Array.isArray(message.content)
        ? message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n')
        : '';
    if (prompt === undefined) {
      if (message.role === 'user' && text.trim()) prompt = text;
      continue;
    }
    if (message.role === 'assistant' && text.trim()) return { prompt, reply: text };
  }
  return undefined;
}

function isPrompt(entry: SessionEntry): boolean {
  return entry.kind === 'message' && entry.message.role === 'user';
}
