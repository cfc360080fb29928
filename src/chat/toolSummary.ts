import * as l10n from '@vscode/l10n';
/** Input fields that best say what a call does, in order of preference. */
const KEY_FIELDS = ['command', 'file_path', 'path', 'pattern', 'url', 'query'] as const;
const MAX_SUMMARY = 200;

/**
 * One line for a tool card's header, from the call's input alone (the card appears before
 * the tool computed its own preview): the command, the path, the pattern or the URL.
 */
export function toolSummary(name: string, input: unknown): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return name;
  const record = input as Record<string, unknown>;
  if (Array.isArray(record.todos)) return record.todos.length === 1 ? l10n.t('1 item') : l10n.t('{0} items', record.todos.length);
  for (const key of KEY_FIELDS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value);
  }
  return name;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
}
