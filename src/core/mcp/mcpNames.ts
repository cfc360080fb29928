import { sha256 } from '../sha256';

/** Providers accept tool names of `[a-zA-Z0-9_-]{1,64}` (OpenAI, Anthropic, Gemini alike). */
export const maxToolNameLength = 64;

/**
 * The name the model sees for a server's tool: `mcp__<server>__<tool>`, with characters
 * providers refuse replaced and, when too long, shortened with a hash so names stay distinct.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${clean(server)}__${clean(tool)}`;
  if (name.length <= maxToolNameLength) return name;
  const hash = sha256(`${server}\0${tool}`).slice(0, 8);
  return `${name.slice(0, maxToolNameLength - hash.length - 1)}_${hash}`;
}

/**
 * What every tool name of `server` starts with (a name shortened with a hash keeps at least
 * this much of it): a running call's name tells which server it went to.
 */
export function mcpToolPrefix(server: string): string {
  return `mcp__${clean(server)}__`.slice(0, maxToolNameLength - 9);
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** The slash command a server's prompt is used with in the composer. */
export function mcpPromptCommand(server: string, prompt: string): string {
  return `mcp.${server}.${prompt.replace(/\s+/g, '_')}`;
}
