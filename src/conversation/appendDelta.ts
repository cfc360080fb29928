import type { UiPart } from '../protocol/uiMessage';

/**
 * Applies a text or reasoning delta: extend the last part if it has that type, else start a
 * new part (e.g. text after a tool call). Returns new parts.
 */
export function appendDelta(parts: readonly UiPart[], type: 'text' | 'reasoning', delta: string): UiPart[] {
  const last = parts.at(-1);
  if (last && last.type === type) {
    return [...parts.slice(0, -1), { type, text: last.text + delta }];
  }
  return [...parts, { type, text: delta }];
}
