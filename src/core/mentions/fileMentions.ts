import { stat } from 'node:fs/promises';
import { errorMessage } from '../errors';
import { listTree } from '../llmsContext/directoryTree';
import { findGitRepo } from '../llmsContext/gitRepo';
import type { FileReadTracker } from '../tools/fileReadTracker';
import { formatBytes } from '../tools/text/formatBytes';
import { readTextFile } from '../tools/text/textFile';
import type { Workspace } from '../workspace/workspace';

/** What one mention expands to before the budget is applied. */
export type MentionBody = { ok: true; body: string; hint: string } | { ok: false; reason: string };

/** Files larger than this are not inlined; the model can read parts of them. */
export const maxMentionFileBytes = 2 * 1024 * 1024;
const maxLineChars = 2_000;

export async function expandFile(
  path: string,
  range: { startLine: number; endLine: number } | undefined,
  workspace: Workspace,
  reads?: FileReadTracker,
): Promise<MentionBody> {
  let abs: string;
  try {
    abs = await workspace.resolve(path);
  } catch (err) {
    return { ok: false, reason: errorMessage(err) };
  }
  const shown = workspace.display(abs);
  let size: number;
  try {
    const info = await stat(abs);
    if (info.isDirectory()) return expandFolder(path, workspace);
    size = info.size;
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return { ok: false, reason: `${shown} does not exist` };
    return { ok: false, reason: `${shown} cannot be read: ${errorMessage(err)}` };
  }
  if (size > maxMentionFileBytes) {
    return { ok: false, reason: `${shown} is ${formatBytes(size)}, too large to attach; read the parts you need with the read tool` };
  }
  const file = await readTextFile(abs);
  if (file.kind === 'missing') return { ok: false, reason: `${shown} does not exist` };
  if (file.kind === 'directory') return expandFolder(path, workspace);
  if (file.kind === 'binary') return { ok: false, reason: `${shown} is a binary file (${file.reason})` };
  // The person showed the model this file: edits to it need no extra read first.
  if (reads) await reads.record(abs, file.bytes);
  const lines = file.text.replace(/^\uFEFF/, '').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return { ok: true, body: `(${shown} is empty)`, hint: '' };
  const start = range ? Math.min(range.startLine, lines.length) : 1;
  const end = range ? Math.min(Math.max(range.endLine, start), lines.length) : lines.length;
  const numbered: string[] = [];
  for (let i = start - 1; i < end; i++) {
    let line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (line.length > maxLineChars) line = `${line.slice(0, maxLineChars)}… [line truncated]`;
    numbered.push(`${String(i + 1).padStart(6)}\t${line}`);
  }
  const note = range ? `(lines ${start}-${end} of ${lines.length})\n` : '';
  return { ok: true, body: note + numbered.join('\n'), hint: `read ${shown} with an offset for the rest` };
}

export async function expandFolder(path: string, workspace: Workspace): Promise<MentionBody> {
  let abs: string;
  try {
    abs = await workspace.resolve(path);
  } catch (err) {
    return { ok: false, reason: errorMessage(err) };
  }
  const shown = workspace.display(abs);
  try {
    const info = await stat(abs);
    if (!info.isDirectory()) return { ok: false, reason: `${shown} is a file, not a folder` };
  } catch (err) {
    return { ok: false, reason: `${shown} cannot be listed: ${errorMessage(err)}` };
  }
  const listing = await listTree(abs, shown, { maxEntries: 300, maxPerDir: 60, repoTop: (await findGitRepo(abs))?.top });
  const more = listing.truncated ? '\n(Not every entry is listed; use ls or glob for the rest.)' : '';
  return { ok: true, body: `${listing.text}${more}`, hint: 'use ls or glob to see more' };
}
