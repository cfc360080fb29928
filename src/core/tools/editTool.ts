import * as z from 'zod';
import { applyFileChange, FileChangeError, previewFileChange } from './fileChange';
import { applyEdit } from './text/applyEdit';
import { defineTool, textResult, type FileChange, type ToolContext } from './tool';
import { expectedFailure } from './toolFailure';
import { keyArgument } from './toolPresentation';

const inputSchema = z.object({
  file_path: z.string().min(1).describe('The file to change.'),
  old_string: z.string().describe('The exact text to replace, including indentation. Empty only to create a new file.'),
  new_string: z.string().describe('The text to put in its place.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence.'),
});

export type EditInput = z.infer<typeof inputSchema>;

export const editTool = defineTool<EditInput>({
  name: 'edit',
  description:
    'Replaces exact text in a file. old_string must match exactly once (include enough surrounding lines) unless ' +
    'replace_all is set. Refused if the file was not read in this session or changed on disk since. Line endings, BOM ' +
    'and the final newline are kept.',
  category: 'write',
  present: (input) => ({ title: 'edit', summary: keyArgument(input, 'edit'), icon: 'edit', details: { kind: 'fileChange', path: input.file_path } }),
  inputSchema,
  preview(input, ctx) {
    return previewFileChange(ctx, input.file_path, 'Edit', (path, shown, before) => planEdit(input, path, shown, before));
  },
  async execute(input, ctx) {
    try {
      return await runEdit(input, ctx);
    } catch (err) {
      return expectedFailure(err);
    }
  },
});

async function runEdit(input: EditInput, ctx: ToolContext) {
  const path = await ctx.workspace.resolve(input.file_path);
  const shown = ctx.workspace.display(path);
  const { change, notes } = await applyFileChange(ctx, path, async (before) => planEdit(input, path, shown, before));
  const what =
    change.before === null
      ? `Created ${shown}.`
      : input.replace_all
        ? `Edited ${shown}: replaced every occurrence of old_string.`
        : `Edited ${shown}.`;
  return textResult([what, ...notes].join('\n\n'));
}

function planEdit(input: EditInput, path: string, shown: string, before: string | null): FileChange {
  if (input.old_string === '') {
    if (before !== null && before !== '') {
      throw new FileChangeError(
        `${shown} already exists and is not empty; an empty old_string only creates a file. ` +
          'Give the text to replace, or use write to replace the whole file.',
      );
    }
    return { path, displayPath: shown, before, after: input.new_string };
  }
  if (before === null) {
    throw new FileChangeError(`File not found: ${shown}. To create it, use write (or edit with an empty old_string).`);
  }
  const outcome = applyEdit(before, {
    oldString: input.old_string,
    newString: input.new_string,
    replaceAll: input.replace_all ?? false,
  });
  if (!outcome.ok) throw new FileChangeError(`Cannot edit ${shown}: ${outcome.error}`);
  return { path, displayPath: shown, before, after: outcome.after };
}
