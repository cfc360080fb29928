import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import * as z from 'zod';
import { walkFiles } from './search/fileWalker';
import { defineTool, errorResult, textResult, type ToolContext, type ToolResult } from './tool';
import { expectedFailure } from './toolFailure';

/** Files walked at most; past it the tree says it is partial. */
export const treeMaxFiles = 20_000;
/** Lines of output at most, and files shown per folder before "… N more files". */
export const treeMaxLines = 400;
export const treeFilesPerFolder = 30;
const defaultDepth = 3;

const inputSchema = z.object({
  path: z.string().min(1).optional().describe('The folder to show (default: the current project).'),
  depth: z.number().int().min(1).max(10).optional().describe(`Levels of folders to open (default ${defaultDepth}); deeper ones show only a file count.`),
});

export type TreeInput = z.infer<typeof inputSchema>;

export const treeTool = defineTool<TreeInput>({
  name: 'tree',
  description:
    'Shows a folder\'s layout in one call: subfolders as an indented tree with their file counts, and the files of the ' +
    'first levels (.gitignore honoured; .git and node_modules skipped). For getting to know a project or part of it.',
  category: 'read',
  inputSchema,
  present: (input) => ({
    title: 'tree',
    summary: input.path ?? '.',
    icon: 'list-tree',
    details: { kind: 'keyValue', entries: [{ key: 'path', value: input.path ?? '.' }, { key: 'depth', value: String(input.depth ?? defaultDepth) }] },
  }),
  async preview(input, ctx) {
    const path = await ctx.workspace.resolve(input.path ?? '.');
    return { summary: ctx.workspace.display(path), paths: [path] };
  },
  async execute(input, ctx) {
    try {
      return await showTree(input, ctx);
    } catch (err) {
      return expectedFailure(err);
    }
  },
});

interface Folder {
  folders: Map<string, Folder>;
  files: string[];
  /** Files in this folder and every folder below it. */
  total: number;
}

async function showTree(input: TreeInput, ctx: ToolContext): Promise<ToolResult> {
  const dir = await ctx.workspace.resolve(input.path ?? '.');
  const shown = ctx.workspace.display(dir);
  if (!(await stat(dir)).isDirectory()) return errorResult(`${shown} is a file, not a folder. Use read to read it.`);
  const walked = await walkFiles([dir], { signal: ctx.signal, maxFiles: treeMaxFiles });
  const root = folderOf(walked.files.map((file) => relative(dir, file).split(sep)));
  const lines: string[] = [`${shown}/ (${fileCount(root.total)})`];
  render(root, input.depth ?? defaultDepth, 1, lines);
  let text = lines.length > treeMaxLines ? [...lines.slice(0, treeMaxLines), `… ${lines.length - treeMaxLines} more lines; ask for a smaller depth or a subfolder.`].join('\n') : lines.join('\n');
  if (walked.truncated) text += `\n\n(Only the first ${treeMaxFiles} files were walked: the counts are partial.)`;
  if (walked.warnings.length) text += `\n\n(Not readable: ${walked.warnings.slice(0, 5).join('; ')})`;
  return textResult(text);
}

function folderOf(paths: readonly string[][]): Folder {
  const root: Folder = { folders: new Map(), files: [], total: 0 };
  for (const parts of paths) {
    let at = root;
    at.total++;
    for (const name of parts.slice(0, -1)) {
      let next = at.folders.get(name);
      if (!next) at.folders.set(name, (next = { folders: new Map(), files: [], total: 0 }));
      next.total++;
      at = next;
    }
    at.files.push(parts[parts.length - 1]!);
  }
  return root;
}

/** Folders first, then files, both by name; folders past `depth` show their file count only. */
function render(folder: Folder, depth: number, level: number, lines: string[]): void {
  const indent = '  '.repeat(level);
  for (const name of [...folder.folders.keys()].sort()) {
    const sub = folder.folders.get(name)!;
    lines.push(`${indent}${name}/ (${fileCount(sub.total)})`);
    if (level < depth) render(sub, depth, level + 1, lines);
    if (lines.length > treeMaxLines) return;
  }
  const files = [...folder.files].sort();
  for (const name of files.slice(0, treeFilesPerFolder)) lines.push(`${indent}${name}`);
  if (files.length > treeFilesPerFolder) lines.push(`${indent}… ${files.length - treeFilesPerFolder} more files`);
}

function fileCount(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}
