import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Workspace } from '../workspace/workspace';
import { realpathAllowMissing } from '../workspace/realpathAllowMissing';

/** Strings longer than this are content, not paths. */
const maxPathChars = 4096;
/** Most strings looked at in one call's arguments. */
const maxStrings = 500;

/**
 * The protected paths an MCP tool call's arguments name. An MCP server interprets its
 * arguments itself, so every short single-line string counts as a path: absolute, a
 * `file:` URI, or relative to any workspace folder (where servers are started). Naming a
 * protected path then asks the person in every mode, as Keel's own tools do.
 */
export async function protectedArgumentPaths(args: unknown, workspace: Workspace): Promise<string[]> {
  const strings: string[] = [];
  collect(args, strings, 0);
  const found = new Set<string>();
  for (const s of strings) {
    for (const candidate of candidates(s, workspace)) {
      let real: string;
      try {
        real = await realpathAllowMissing(candidate, s);
      } catch {
        // Not resolvable (a loop, a NUL): the literal path still says what it names.
        real = candidate;
      }
      if (workspace.isProtected(real) || workspace.isProtected(candidate)) found.add(real);
    }
  }
  return [...found];
}

function collect(value: unknown, out: string[], depth: number): void {
  if (out.length >= maxStrings || depth > 32) return;
  if (typeof value === 'string') {
    if (value.length > 0 && value.length <= maxPathChars && !value.includes('\n') && !value.includes('\0')) out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out, depth + 1);
    return;
  }
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) collect(v, out, depth + 1);
  }
}

function candidates(text: string, workspace: Workspace): string[] {
  let path = text.trim();
  if (/^file:/i.test(path)) {
    try {
      path = fileURLToPath(path);
    } catch {
      // Not a valid file URI: treat the text as a plain path.
    }
  }
  if (isAbsolute(path)) return [path];
  return workspace.folders.map((f) => join(f.path, path));
}
