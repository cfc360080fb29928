import type { UiMessage } from './uiMessage';

/**
 * What the chat page showed last, kept small: the newest messages as text. The page saves
 * it as its VS Code webview state, which VS Code hands back to the next page of the view (a
 * new window, the view shown again); that page draws it before its UI script has loaded
 * (src/vscode/view/earlyViewDraw.ts). It is a picture of the last screen, never a source of truth: the
 * snapshot the host sends on `ready` replaces it.
 */
export interface EarlyView {
  v: typeof EARLY_VIEW_VERSION;
  messages: EarlyMessage[];
  /** The conversation's title, for the header (kept with messages only: a new conversation has none). */
  title?: string;
}

export interface EarlyMessage {
  role: 'user' | 'assistant';
  /** Text and tool lines in order; text of the model is markdown source. */
  items: EarlyItem[];
}

export type EarlyItem = { kind: 'text'; text: string } | { kind: 'tool'; label: string };

export const EARLY_VIEW_VERSION = 1;
/** The newest messages kept: what fills a sidebar's height. */
export const EARLY_MESSAGES = 6;
/** Characters of text kept per message (its end: the view opens at the bottom). */
export const EARLY_TEXT_CHARS = 1500;
const EARLY_ITEMS = 8;
const EARLY_LABEL_CHARS = 120;

/** The newest messages of a conversation, as the early view keeps them, with its title if it has one. */
export function earlyViewOf(messages: readonly UiMessage[], title?: string): EarlyView {
  const kept: EarlyMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && kept.length < EARLY_MESSAGES; i--) {
    const message = messages[i]!;
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const items: EarlyItem[] = [];
    let budget = EARLY_TEXT_CHARS;
    // From the end, so a long message keeps what the view shows first: its last lines.
    for (let p = message.parts.length - 1; p >= 0 && items.length < EARLY_ITEMS && budget > 0; p--) {
      const part = message.parts[p]!;
      if (part.type === 'text' && part.text.trim() !== '') {
        const text = part.text.length > budget ? `…${part.text.slice(part.text.length - budget)}` : part.text;
        budget -= text.length;
        items.unshift({ kind: 'text', text });
      } else if (part.type === 'toolCall') {
        items.unshift({ kind: 'tool', label: `${part.display.title} ${part.display.summary}`.trim().slice(0, EARLY_LABEL_CHARS) });
      }
    }
    if (items.length > 0) kept.unshift({ role: message.role, items });
  }
  return title && kept.length > 0 ? { v: EARLY_VIEW_VERSION, messages: kept, title: title.slice(0, EARLY_LABEL_CHARS) } : { v: EARLY_VIEW_VERSION, messages: kept };
}
