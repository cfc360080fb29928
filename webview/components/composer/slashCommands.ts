import * as l10n from '@vscode/l10n';
/** Commands typed at the start of the composer. */
export type SlashCommandName = 'new' | 'plan' | 'sessions' | 'help' | 'compact' | 'worktree';

/** An MCP server's prompt: `/mcp.<server>.<prompt>`. */
export type McpCommandName = `mcp.${string}`;

export interface SlashCommandInfo {
  /** A built-in command, an MCP prompt (`mcp.…`), or a command file's or skill's name. */
  name: string;
  /** Shown after the name in the popup, e.g. "<task>". */
  argument?: string;
  description: string;
  /** A command file or a skill of the person's setup: picking it writes `/name ` for its arguments. */
  setup?: 'command' | 'skill';
}

// Descriptions are getters: the page's locale is applied after the modules load.
export const SLASH_COMMANDS: readonly (SlashCommandInfo & { name: SlashCommandName })[] = [
  { name: 'new', get description() { return l10n.t('Start a new chat'); } },
  { name: 'plan', argument: '<task>', get description() { return l10n.t('Plan a task with read-only tools'); } },
  { name: 'sessions', get description() { return l10n.t('Browse and resume past chats'); } },
  { name: 'help', get description() { return l10n.t('Show commands and keys'); } },
  { name: 'compact', get description() { return l10n.t('Summarize the conversation so far to free context'); } },
  { name: 'worktree', argument: '[name]', get description() { return l10n.t('Start a new chat in its own git worktree and branch'); } },
];

export type ParsedSlash =
  | { kind: 'command'; name: SlashCommandName; argument: string }
  | { kind: 'unknown'; name: string };

/**
 * A message that is a slash command, or null for a normal message. "/plan fix it" is a
 * command; "/usr/bin is odd" is not one we know, and is reported rather than sent.
 */
export function parseSlashCommand(text: string): ParsedSlash | null {
  const match = /^\/([a-z][\w-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (!match) return null;
  const name = (match[1] ?? '').toLowerCase();
  const known = SLASH_COMMANDS.find((command) => command.name === name);
  if (!known) return { kind: 'unknown', name };
  return { kind: 'command', name: known.name, argument: (match[2] ?? '').trim() };
}

/** Popup entries while the person is typing the command word ("/pl" → plan); none once a space follows. */
export function slashCompletions(text: string): readonly SlashCommandInfo[] {
  const match = /^\/([a-z-]*)$/i.exec(text);
  if (!match) return [];
  const prefix = (match[1] ?? '').toLowerCase();
  return SLASH_COMMANDS.filter((command) => command.name.startsWith(prefix));
}
