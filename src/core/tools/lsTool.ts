import { readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { defineTool, errorResult, textResult, type ToolContext, type ToolResult } from './tool';
import { expectedFailure } from './toolFailure';
import { keyArgument, keyValueDetails } from './toolPresentation';

export const lsMaxEntries = 1000;

const inputSchema = z.object({
  path: z.string().min(1).optional().describe('The folder to list (default: the current project).'),
});

export type LsInput = z.infer<typeof inputSchema>;

export const lsTool = defineTool<LsInput>({
  name: 'ls',
  description:
    `Lists a folder's entries (at most ${lsMaxEntries}), sorted by name; folders end with "/", symbolic links show their target.`,
  category: 'read',
  present: (input) => ({ title: 'ls', summary: keyArgument(input, 'ls'), icon: 'folder', details: input.path ? { kind: 'fileChange', path: input.path } : keyValueDetails(input) }),
  inputSchema,
  async preview(input, ctx) {
    const path = await ctx.workspace.resolve(input.path ?? '.');
    return { summary: ctx.workspace.display(path), paths: [path] };
  },
  async execute(input, ctx) {
    try {
      return await list(input, ctx);
    } catch (err) {
      return expectedFailure(err);
    }
  },
});

async function list(input: LsInput, ctx: ToolContext): Promise<ToolResult> {
  const dir = await ctx.workspace.resolve(input.path ?? '.');
  const shown = ctx.workspace.display(dir);
  let info;
  try {
    info = await stat(dir);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return errorResult(`No such folder: ${shown}.`);
    throw err;
  }
  if (!info.isDirectory()) return errorResult(`${shown} is a file, not a folder. Use read to read it.`);
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines: string[] = [];
  for (const entry of entries.slice(0, lsMaxEntries)) {
    if (ctx.signal.aborted) return errorResult('Cancelled.');
    if (entry.isSymbolicLink()) {
      const full = join(dir, entry.name);
      const target = await readlink(full);
      lines.push(`${entry.name}${await linkSuffix(full)} -> ${target}`);
    } else {
      lines.push(entry.isDirectory() ? `${entry.name}/` : entry.name);
    }
  }
  const header = `${shown}/ (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'})`;
  if (entries.length === 0) return textResult(`${header}: empty folder.`);
  let text = `${header}\n${lines.join('\n')}`;
  if (input.path === undefined && ctx.workspace.folders.length > 1) text += `\n\n${otherFolders(ctx)}`;
  if (entries.length > lsMaxEntries) {
    text += `\n\n(${entries.length - lsMaxEntries} more entries not shown. Use glob with a pattern to narrow the listing.)`;
  }
  return textResult(text);
}

/** Listing the current project by default, the model should still learn the other projects' names. */
function otherFolders(ctx: ToolContext): string {
  const others = ctx.workspace.folders.filter((f) => f !== ctx.workspace.current).map((f) => `${f.name}/`);
  return `(This is the current project ${ctx.workspace.current.name}. Other workspace folders: ${others.join(', ')}; list one with path "${others[0]}".)`;
}

/** "/" for a link to a folder, a note for a link that cannot be followed. */
async function linkSuffix(linkPath: string): Promise<string> {
  try {
    return (await stat(linkPath)).isDirectory() ? '/' : '';
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : 'unknown error';
    return ` (broken link: ${code})`;
  }
}
