import * as l10n from '@vscode/l10n';
import type { McpPromptView } from '../../../src/protocol/mcpStatus';
import type { McpCommandName, SlashCommandInfo } from './slashCommands';

export type McpSlash =
  | { kind: 'prompt'; prompt: McpPromptView; args: Record<string, string> }
  | { kind: 'problem'; message: string };

export function isMcpCommand(name: string): name is McpCommandName {
  return name.startsWith('mcp.');
}

/**
 * `/mcp.<server>.<prompt> key=value key2="two words"` as a prompt and its arguments; a prompt
 * with a single argument also takes the rest of the line as it is. Null when the text is not
 * an MCP prompt command at all.
 */
export function parseMcpSlash(text: string, prompts: readonly McpPromptView[]): McpSlash | null {
  const match = /^\/(mcp\.\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const command = match[1] ?? '';
  const prompt = prompts.find((p) => p.command === command);
  if (!prompt) return { kind: 'problem', message: l10n.t('There is no MCP prompt /{0} (is its server ready? See Keel: MCP Servers).', command) };
  const rest = (match[2] ?? '').trim();
  const args: Record<string, string> = {};
  const pairs = [...rest.matchAll(/([\w.-]+)=("((?:[^"\\]|\\.)*)"|\S*)/g)];
  const only = prompt.arguments.length === 1 ? prompt.arguments[0] : undefined;
  if (rest && only && (pairs.length === 0 || pairs[0]![1] !== only.name)) {
    args[only.name] = rest;
  } else {
    for (const p of pairs) args[p[1]!] = p[3] !== undefined ? p[3].replace(/\\(.)/g, '$1') : (p[2] ?? '');
    const unknown = Object.keys(args).filter((k) => !prompt.arguments.some((a) => a.name === k));
    if (unknown.length) return { kind: 'problem', message: l10n.t('/{0} has no argument {1}; it takes {2}.', command, unknown.join(', '), usage(prompt)) };
  }
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]);
  if (missing.length) return { kind: 'problem', message: l10n.t('/{0} needs {1}: /{0} {2}', command, missing.map((a) => a.name).join(', '), usage(prompt)) };
  return { kind: 'prompt', prompt, args };
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
  return p.arguments.map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ') || l10n.t('(no arguments)');
}
