import * as l10n from '@vscode/l10n';

/**
 * How a tool call looks on its card: a title, one line, a codicon and details drawn by one of
 * a small closed set of renderers the page knows. Every tool describes its own calls; tools
 * that do not (and inputs that do not parse) get the generic key/value card.
 */
export type ToolDetails =
  /** A file the call reads or changes. */
  | { kind: 'fileChange'; path: string; range?: string }
  /** A command line; its output is the call's result. */
  | { kind: 'command'; command: string; cwd?: string; description?: string; background?: boolean }
  /** A search: the pattern, where, and (once known) how many matches. */
  | { kind: 'search'; pattern: string; scope?: string; matches?: number }
  /** A fetched web page. */
  | { kind: 'fetchedPage'; url: string }
  /** The agent's todo list as the call leaves it. */
  | { kind: 'todoList'; items: TodoDisplayItem[] }
  /** Anything else: the arguments, one row each. */
  | { kind: 'keyValue'; entries: KeyValueEntry[] };

export interface TodoDisplayItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface KeyValueEntry {
  key: string;
  value: string;
}

export interface ToolPresentation {
  /** Shown where the card names the tool. */
  title: string;
  /** One line for the card's header: the command, the path, the URL. */
  summary: string;
  /** A codicon id. */
  icon: string;
  details: ToolDetails;
}

/** Longest summary line; longer ones end in an ellipsis. */
export const MAX_SUMMARY_CHARS = 200;
/** Most key/value rows a generic card shows (the page's schema takes 50), and the longest value. */
const MAX_ENTRIES = 20;
const MAX_VALUE_CHARS = 2000;
/** Input fields that best say what a call does, in order of preference. */
const KEY_FIELDS = ['command', 'file_path', 'path', 'pattern', 'url', 'query'] as const;

/** Text on one line, cut to the summary's length. */
export function oneLine(text: string, max = MAX_SUMMARY_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "1 item" / "3 items", for lists a card counts. */
export function itemCount(n: number): string {
  return n === 1 ? l10n.t('1 item') : l10n.t('{0} items', n);
}

/** The call's most telling argument on one line, or `fallback` when it has none. */
export function keyArgument(input: unknown, fallback: string): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fallback;
  const record = input as Record<string, unknown>;
  if (Array.isArray(record.todos)) return itemCount(record.todos.length);
  for (const key of KEY_FIELDS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return oneLine(value);
  }
  return fallback;
}

/** The arguments of a call, one row each (values that are not text as compact JSON). */
export function keyValueDetails(input: unknown): ToolDetails {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { kind: 'keyValue', entries: input === undefined ? [] : [{ key: 'input', value: cap(JSON.stringify(input) ?? '') }] };
  }
  const entries = Object.entries(input as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .slice(0, MAX_ENTRIES)
    .map(([key, value]) => ({ key, value: cap(typeof value === 'string' ? value : (JSON.stringify(value) ?? '')) }));
  return { kind: 'keyValue', entries };
}

/** The card of a tool that says nothing about its looks: its name, its key argument, its arguments. */
export function genericPresentation(name: string, input: unknown, look: { title?: string; icon?: string } = {}): ToolPresentation {
  return { title: look.title ?? name, summary: keyArgument(input, name), icon: look.icon ?? 'tools', details: keyValueDetails(input) };
}

/** What a tool needs for its calls to be presented. */
export interface PresentableTool {
  name: string;
  inputSchema: { safeParse(input: unknown): { success: true; data: unknown } | { success: false } };
  present?(input: never): ToolPresentation;
}

/**
 * A call's card: the tool's own when its input parses, else the generic one. A tool whose
 * `present` throws gets the generic card too (a card is never worth failing a call for).
 */
export function presentCall(tool: PresentableTool | undefined, name: string, input: unknown): ToolPresentation {
  if (!tool?.present) return genericPresentation(name, input);
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return genericPresentation(name, input);
  try {
    return (tool.present as (input: unknown) => ToolPresentation)(parsed.data);
  } catch {
    return genericPresentation(name, input);
  }
}

function cap(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
