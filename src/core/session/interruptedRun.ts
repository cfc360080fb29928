import type { ModelMessage } from 'ai';
import { unansweredCalls } from './modelNotes';
import type { MessageMeta } from './sessionRecords';

/** What a run cut short left: words for the note, and results for the tool calls that never got one. */
export interface Interruption {
  what?: string;
  /** A tool message answering the unfinished calls (the model needs a result for every call). */
  closing?: ModelMessage;
}

/** Reads the last message of the branch a run was writing when Keel stopped. */
export function interruptionOf(last: { message: ModelMessage; meta?: MessageMeta } | undefined): Interruption {
  if (last?.message.role === 'user') return { what: 'the reply to the message above was cut off and lost.' };
  if (last?.message.role === 'tool') return { what: 'the reply after these tool results was cut off and lost.' };
  if (last?.message.role !== 'assistant') return {};
  const open = unansweredCalls(last.message, undefined);
  if (open.length === 0) return last.meta?.partial ? { what: 'the reply above was cut off.' } : {};
  const names = [...new Set(open.map((c) => c.toolName))].join(', ');
  const one = open.length === 1;
  return {
    what: `the tool call${one ? '' : 's'} (${names}) did not finish; check what ${one ? 'it' : 'they'} did before repeating ${one ? 'it' : 'them'}.`,
    closing: {
      role: 'tool',
      content: open.map((c) => ({
        type: 'tool-result' as const,
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        output: { type: 'error-text' as const, value: 'Keel stopped before this call finished (the editor or the keel command was closed); it may have run in part.' },
      })),
    },
  };
}
