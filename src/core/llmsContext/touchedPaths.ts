import type { SessionEntry } from '../session/session';
import { PathError } from '../workspace/pathError';
import type { Workspace } from '../workspace/workspace';

/** Input keys through which the built-in tools name a file or folder. */
const pathKeys = ['file_path', 'path'] as const;
const maxPaths = 500;

/**
 * The workspace paths the agent's tool calls named in a session so far (newest first, at
 * most 500), so a resumed conversation keeps the nested rules of the folders it worked in.
 */
export async function touchedPathsIn(entries: readonly SessionEntry[], workspace: Workspace): Promise<string[]> {
  const named = new Set<string>();
  for (let i = entries.length - 1; i >= 0 && named.size < maxPaths; i--) {
    const e = entries[i];
    if (e.kind !== 'message' || e.message.role !== 'assistant' || typeof e.message.content === 'string') continue;
    for (const part of e.message.content) {
      if (part.type !== 'tool-call' || typeof part.input !== 'object' || part.input === null) continue;
      const input = part.input as Record<string, unknown>;
      for (const key of pathKeys) {
        const value = input[key];
        if (typeof value === 'string' && value !== '') named.add(value);
      }
    }
  }
  const out: string[] = [];
  for (const p of named) {
    try {
      out.push(await workspace.resolve(p));
    } catch (err) {
      // A path the model got wrong (outside the workspace, malformed) touched nothing.
      if (!(err instanceof PathError)) throw err;
    }
  }
  return out;
}
