import * as l10n from '@vscode/l10n';
import type { McpPromptView } from '../../../src/protocol/mcpStatus';
import { mcpSlashUsage, readMcpSlash } from '../../../src/protocol/mcpSlashCommand';
import type { McpCommandName, SlashCommandInfo } from './slashCommands';

export type McpSlash =
  | { kind: 'prompt'; prompt: McpPromptView; args: Record<string, string> }
  | { kind: 'problem'; message: string };

export function isMcpCommand(name: string): name is McpCommandName {
  return name.startsWith('mcp.');
}

/** An MCP prompt command read for sending, with the composer's wording of what is wrong. */
export function parseMcpSlash(text: string, prompts: readonly McpPromptView[]): McpSlash | null {
  const read = readMcpSlash(text, prompts);
  if (!read) return null;
  switch (read.kind) {
    case 'prompt':
      return read;
    case 'unknownPrompt':
      return { kind: 'problem', message: l10n.t('There is no MCP prompt /{0} (is its server ready? See Keel: MCP Servers).', read.command) };
    case 'unknownArguments':
      return { kind: 'problem', message: l10n.t('/{0} has no argument {1}; it takes {2}.', read.command, read.names.join(', '), usage(read.prompt)) };
    case 'missingArguments':
      return { kind: 'problem', message: l10n.t('/{0} needs {1}: /{0} {2}', read.command, read.names.join(', '), usage(read.prompt)) };
  }
}

/** Popup entries for MCP prompts while the command word is typed. */
export function mcpCompletions(text: string, prompts: readonly McpPromptView[]): SlashCommandInfo[] {
  const match = /^\/([\w.-]*)$/.exec(text);
  if (!match) return [];
  const prefix = match[1] ?? '';
  return prompts
    .filter((p) => p.command.startsWith(prefix))
    .map((p) => ({
      name: p.command as McpCommandName,
      ...(p.arguments.length ? { argument: usage(p) } : {}),
      description: p.description ?? l10n.t('Prompt of the MCP server {0}', p.server),
    }));
}

function usage(p: McpPromptView): string {
  return mcpSlashUsage(p) || l10n.t('(no arguments)');
}
