import type { FileChange, ToolContext, ToolPreview } from './tool';
import { readTextFile } from './text/textFile';

/** An expected refusal while planning a file change; becomes the tool's error text. */
export class FileChangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileChangeError';
  }
}

/** The file as it is now: null when it does not exist. Refuses folders and non-text files. */
export async function currentText(absPath: string, shown: string): Promise<string | null> {
  const file = await readTextFile(absPath);
  switch (file.kind) {
    case 'missing':
      return null;
    case 'directory':
      throw new FileChangeError(`${shown} is a directory, not a file.`);
    case 'binary':
      throw new FileChangeError(`${shown} is a binary file (${file.reason}); only text files can be changed.`);
    case 'text':
      if (!file.exact) {
        throw new FileChangeError(`${shown} contains invalid UTF-8; changing it as text would corrupt it.`);
      }
      return file.text;
  }
}

/**
 * The preview of a write or edit: resolves the path, reads the file as it is (which must be
 * what the agent last read), and lets `plan` compute the proposal. Nothing is written.
 */
export async function previewFileChange(
  ctx: ToolContext,
  filePath: string,
  verb: string,
  plan: (path: string, shown: string, before: string | null) => FileChange,
): Promise<ToolPreview> {
  const path = await ctx.workspace.resolve(filePath);
  const shown = ctx.workspace.display(path);
  const before = await currentText(path, shown);
  if (before !== null) await ctx.reads.assertFresh(path, before);
  return { summary: `${before === null ? 'Create' : verb} ${shown}`, paths: [path], change: plan(path, shown, before) };
}

/**
 * Applies a change computed from `input` to the file as it is now, honouring the person's
 * approval: their settled content replaces the proposal, and a proposal that was computed
 * against an older version of the file is refused rather than written over newer content.
 */
export async function applyFileChange(
  ctx: ToolContext,
  absPath: string,
  compute: (before: string | null) => Promise<FileChange>,
): Promise<{ change: FileChange; written: string; notes: string[] }> {
  const shown = ctx.workspace.display(absPath);
  if (ctx.approval && !ctx.approval.approved) {
    throw new FileChangeError(`The change to ${shown} was not approved; nothing was written.`);
  }
  const proposed = ctx.preview?.change;
  if (proposed && proposed.path !== absPath) {
    // Resolved again at apply time: a link swapped since the preview must not redirect the write.
    throw new FileChangeError(
      `${shown} now resolves to ${absPath}, not to ${proposed.path} as when the change was proposed; nothing was written. Check the path and redo the change.`,
    );
  }
  const before = await currentText(absPath, shown);
  if (before !== null) await ctx.reads.assertFresh(absPath, before);
  let change: FileChange;
  if (proposed && proposed.before === before) {
    change = proposed;
  } else if (ctx.approval?.content !== undefined) {
    throw new FileChangeError(`${shown} changed after the change was proposed; nothing was written. Read it again and redo the change.`);
  } else {
    change = await compute(before);
  }
  const written = ctx.approval?.content ?? change.after;
  if (written === null) throw new FileChangeError(`Deleting ${shown} is not supported by this tool.`);
  if (ctx.signal.aborted) throw new FileChangeError(`Cancelled before ${shown} was written.`);
  const report = await ctx.host.writeFile(absPath, written);
  await ctx.reads.record(absPath, report.landed ?? written);
  const notes: string[] = [];
  if (ctx.approval?.content !== undefined && ctx.approval.content !== change.after) {
    notes.push('The person modified the proposed change before applying it; read the file to see the exact result.');
  }
  if (ctx.approval?.note) notes.push(`Note from the person: ${ctx.approval.note}`);
  if (report.landed !== undefined && report.landed !== written) {
    notes.push(
      `The editor's save actions (such as format on save or trimming trailing whitespace) changed ${shown} as it was saved, ` +
        'so the file differs from the approved change. Read it again before changing it further.',
    );
  }
  if (report.diagnostics) notes.push(`Diagnostics after the change:\n${report.diagnostics}`);
  return { change, written, notes };
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}
