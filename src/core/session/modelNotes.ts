import type { ModelMessage, UserModelMessage } from 'ai';

/**
 * The words the model reads where the log holds a compaction or an interruption. They are
 * written at history() time, so the log keeps the summary as the model wrote it.
 */

export function compactionNote(summary: string): string {
  return (
    '[Summary of the earlier part of this conversation, written when Keel compacted it to fit the context window. ' +
    'The messages it replaces are still in the session: the history_search tool finds their exact words.]\n\n' +
    summary
  );
}

/** What the model is told after a run that Keel's process did not live to finish. */
export function interruptionNote(what: string): string {
  return `[Keel stopped before the previous request finished (the editor or the keel command was closed): ${what}]`;
}

/** `message` with `note` as its first text, so an interruption never makes two user turns in a row. */
export function withLeadingNote(message: UserModelMessage, note: string): UserModelMessage {
  if (typeof message.content === 'string') return { ...message, content: `${note}\n\n${message.content}` };
  return { ...message, content: [{ type: 'text', text: note }, ...message.content] };
}

/** Tool calls of an assistant message that have no result in `next` (the tool message after it, if any). */
export function unansweredCalls(assistant: ModelMessage, next: ModelMessage | undefined): { toolCallId: string; toolName: string }[] {
  if (assistant.role !== 'assistant' || typeof assistant.content === 'string') return [];
  const answered = new Set<string>();
  if (next?.role === 'tool') for (const p of next.content) if (p.type === 'tool-result') answered.add(p.toolCallId);
  return assistant.content.flatMap((p) =>
    p.type === 'tool-call' && !answered.has(p.toolCallId) ? [{ toolCallId: p.toolCallId, toolName: p.toolName }] : [],
  );
}
