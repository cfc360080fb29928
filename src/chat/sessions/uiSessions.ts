import type { SessionEntry } from '../../core/session';
import type { SessionSummary as CoreSessionSummary } from '../../core/session';
import type { TodoItem as CoreTodoItem } from '../../core/tools';
import type { SessionSummary } from '../../protocol/sessionState';

/** A history row as the view lists it. */
export function toUiSummary(summary: CoreSessionSummary): SessionSummary {
  return {
    id: summary.id,
    title: summary.title,
    createdAt: epochMs(summary.createdAt),
    updatedAt: epochMs(summary.updatedAt),
    messageCount: summary.messageCount,
    tokens: summary.usage.inputTokens + summary.usage.outputTokens,
    ...(summary.branch ? { branch: summary.branch } : {}),
  };
}

const TODO_STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed']);

/**
 * The agent's todo list as its last successful `todo_write` call left it, so a resumed
 * conversation shows the list it had (the list itself lives only in memory).
 */
export function todosFromEntries(entries: readonly SessionEntry[]): CoreTodoItem[] {
  const failed = new Set<string>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind !== 'message' || typeof entry.message.content === 'string') continue;
    const { message } = entry;
    if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result' && part.output.type.startsWith('error')) failed.add(part.toolCallId);
      }
      continue;
    }
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const content = message.content;
    for (let p = content.length - 1; p >= 0; p--) {
      const part = content[p]!;
      if (part.type !== 'tool-call' || part.toolName !== 'todo_write' || failed.has(part.toolCallId)) continue;
      const items = parseTodos(part.input);
      if (items) return items;
    }
  }
  return [];
}

function parseTodos(input: unknown): CoreTodoItem[] | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const todos = (input as { todos?: unknown }).todos;
  if (!Array.isArray(todos)) return undefined;
  const items: CoreTodoItem[] = [];
  for (const item of todos) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { id, content, status } = item as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || typeof content !== 'string' || typeof status !== 'string' || !TODO_STATUSES.has(status)) {
      return undefined;
    }
    items.push({ id, content, status: status as CoreTodoItem['status'] });
  }
  return items;
}

function epochMs(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && ms >= 0 ? ms : 0;
}
