import * as l10n from '@vscode/l10n';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { KeelError, errorMessage } from '../core/errors';
import { parseMcpConfig } from '../core/mcp';
import type { ExpandVars, ParsedMcpConfig } from '../core/mcp';

/**
 * `--mcp-config FILE_OR_JSON`, repeatable: JSON text when it starts with `{`, else a file.
 * A file that cannot be read or parsed stops the run; a bad server entry is reported and the
 * other servers still start.
 */
export function readMcpConfigArgs(values: readonly string[], vars: ExpandVars): ParsedMcpConfig {
  const out: ParsedMcpConfig = { servers: [], problems: [] };
  for (const value of values) {
    const inline = value.trimStart().startsWith('{');
    const source = inline ? '--mcp-config' : `--mcp-config ${value}`;
    let text = value;
    if (!inline) {
      try {
        text = readFileSync(resolve(value), 'utf8');
      } catch (err) {
        throw new KeelError('usage', l10n.t('{0}: cannot read the file ({1})', source, errorMessage(err)));
      }
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new KeelError('usage', l10n.t('{0}: not valid JSON ({1})', source, errorMessage(err)));
    }
    const parsed = parseMcpConfig(raw, 'cli', vars, source);
    out.servers.push(...parsed.servers);
    out.problems.push(...parsed.problems);
  }
  return out;
}
