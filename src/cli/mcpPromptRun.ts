import * as l10n from '@vscode/l10n';
import { KeelError } from '../core/errors';
import type { McpManager } from '../core/mcp/index';
import { mcpSlashUsage, readMcpSlash } from '../protocol/mcpSlashCommand';

/**
 * `keel run "/mcp.<server>.<prompt> key=value …"`: the server fills the prompt and its text is
 * what is sent, as in the VS Code chat. Any other prompt comes back as it is. An unknown
 * prompt or a missing argument is a usage error that names what the prompt takes.
 */
export async function expandMcpPrompt(prompt: string, mcp: McpManager): Promise<string> {
  if (!/^\s*\/mcp\./.test(prompt)) return prompt;
  // Servers still starting are waited for (each start is bounded by its timeout).
  await mcp.tools();
  const prompts = mcp.prompts();
  const read = readMcpSlash(prompt, prompts);
  if (!read) return prompt;
  const usage = (p: (typeof prompts)[number]) => mcpSlashUsage(p) || l10n.t('(no arguments)');
  switch (read.kind) {
    case 'unknownPrompt': {
      const known = prompts.map((p) => `/${p.command}`).join(', ');
      throw new KeelError('usage', known ? l10n.t('There is no MCP prompt /{0}. The prompts of the running servers: {1}', read.command, known) : l10n.t('There is no MCP prompt /{0}: no running MCP server offers prompts.', read.command));
    }
    case 'unknownArguments':
      throw new KeelError('usage', l10n.t('/{0} has no argument {1}; it takes {2}.', read.command, read.names.join(', '), usage(read.prompt)));
    case 'missingArguments':
      throw new KeelError('usage', l10n.t('/{0} needs {1}: /{0} {2}', read.command, read.names.join(', '), usage(read.prompt)));
    case 'prompt': {
      const text = await mcp.promptText(read.prompt.server, read.prompt.name, read.args);
      if (!text.trim()) throw new KeelError('usage', l10n.t('The MCP prompt /{0} came back empty; nothing was sent.', read.prompt.command));
      return text;
    }
  }
}
