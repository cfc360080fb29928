// `/mcp.<server>.<prompt> key=value …` read the same way by the VS Code composer and `keel run`;
// each side words its own messages.

/** What the reader needs of a prompt (McpPromptView on the page, McpPromptInfo in the core). */
export interface McpSlashPrompt {
  command: string;
  arguments: readonly { name: string; required: boolean }[];
}

export type McpSlashReading<P extends McpSlashPrompt> =
  | { kind: 'prompt'; prompt: P; args: Record<string, string> }
  | { kind: 'unknownPrompt'; command: string }
  | { kind: 'unknownArguments'; command: string; prompt: P; names: string[] }
  | { kind: 'missingArguments'; command: string; prompt: P; names: string[] };

/**
 * `/mcp.<server>.<prompt> key=value key2="two words"` as a prompt and its arguments; a prompt
 * with a single argument also takes the rest of the line as it is. Null when the text is not
 * an MCP prompt command at all.
 */
export function readMcpSlash<P extends McpSlashPrompt>(text: string, prompts: readonly P[]): McpSlashReading<P> | null {
  const match = /^\/(mcp\.\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const command = match[1] ?? '';
  const prompt = prompts.find((p) => p.command === command);
  if (!prompt) return { kind: 'unknownPrompt', command };
  const rest = (match[2] ?? '').trim();
  const args: Record<string, string> = {};
  const pairs = [...rest.matchAll(/([\w.-]+)=("((?:[^"\\]|\\.)*)"|\S*)/g)];
  const only = prompt.arguments.length === 1 ? prompt.arguments[0] : undefined;
  if (rest && only && (pairs.length === 0 || pairs[0]![1] !== only.name)) {
    args[only.name] = rest;
  } else {
    for (const p of pairs) args[p[1]!] = p[3] !== undefined ? p[3].replace(/\\(.)/g, '$1') : (p[2] ?? '');
    const unknown = Object.keys(args).filter((k) => !prompt.arguments.some((a) => a.name === k));
    if (unknown.length) return { kind: 'unknownArguments', command, prompt, names: unknown };
  }
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]);
  if (missing.length) return { kind: 'missingArguments', command, prompt, names: missing.map((a) => a.name) };
  return { kind: 'prompt', prompt, args };
}

/** `a=… [b=…]`, or '' for a prompt without arguments. */
export function mcpSlashUsage(p: McpSlashPrompt): string {
  return p.arguments.map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ');
}
