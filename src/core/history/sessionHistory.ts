import type { ModelMessage } from 'ai';

/** One message of the current session as history_search sees it. */
export interface HistoryMessage {
  id: string;
  /** 1-based position in the conversation (the active branch). */
  index: number;
  role: ModelMessage['role'] | 'summary';
  /** How many prompts of the person came before or with it: the exchange it belongs to. */
  exchange: number;
  ts: string;
  text: string;
}

/** The current session's whole conversation, including what compaction or trimming hid from the model. */
export interface SessionHistory {
  messages(): HistoryMessage[];
}

const inputChars = 300;

/** The searchable text of a message: its words, tool calls with their input, tool results. */
export function messageText(m: ModelMessage): string {
  if (typeof m.content === 'string') return m.content;
  const out: string[] = [];
  for (const part of m.content) {
    switch (part.type) {
      case 'text':
        out.push(part.text);
        break;
      case 'reasoning':
        out.push(`(reasoning) ${part.text}`);
        break;
      case 'tool-call': {
        const input = JSON.stringify(part.input ?? {});
        out.push(`[called ${part.toolName} ${input.length > inputChars ? `${input.slice(0, inputChars)}…` : input}]`);
        break;
      }
      case 'tool-result': {
        const o = part.output;
        let text: string;
        if (o.type === 'text' || o.type === 'error-text') text = o.value;
        else if (o.type === 'json' || o.type === 'error-json') text = JSON.stringify(o.value);
        else if (o.type === 'content') text = o.value.map((v) => (v.type === 'text' ? v.text : '[image]')).join('\n');
        else text = `[${o.type}]`;
        out.push(`[${part.toolName} result${o.type.startsWith('error') ? ' (error)' : ''}] ${text}`);
        break;
      }
      case 'image':
        out.push('[image]');
        break;
      case 'file':
        out.push(`[file ${part.mediaType}]`);
        break;
      default:
        break;
    }
  }
  return out.join('\n');
}
