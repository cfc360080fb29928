import { readFileSync } from 'node:fs';
import { errorMessage } from '../errors';
import type { ExpandVars, McpOrigin, ParsedMcpConfig } from './mcpConfig';
import { parseMcpConfig } from './mcpConfig';

/** An mcp.json file: missing is no servers; unreadable or broken is a problem naming the file. */
export function readMcpFile(file: string, origin: McpOrigin, vars: ExpandVars): ParsedMcpConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [], problems: [] };
    return { servers: [], problems: [{ message: `${file}: cannot read it (${errorMessage(err)})` }] };
  }
  let raw: unknown;
  try {
    raw = parseJsonc(text);
  } catch (err) {
    return { servers: [], problems: [{ message: `${file}: not valid JSON (${errorMessage(err)})` }] };
  }
  return parseMcpConfig(raw, origin, vars, file);
}

/** VS Code's mcp.json is JSONC: `//` and block comments and trailing commas are allowed. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) i++;
      i++;
    } else if (c !== ',' || !isTrailingComma(text, i)) out += c;
  }
  return JSON.parse(out);
}

/** A comma followed (past spaces and comments) by a closing bracket. */
function isTrailingComma(text: string, at: number): boolean {
  const rest = text.slice(at + 1).replace(/^(\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/, '');
  return rest.startsWith('}') || rest.startsWith(']');
}
