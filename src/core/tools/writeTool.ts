import * as z from 'zod';
import { applyFileChange, countLines, previewFileChange } from './fileChange';
import { detectEol, splitBom, withEol } from './text/lineEndings';
import { defineTool, textResult, type FileChange, type ToolContext } from './tool';
import { expectedFailure } from './toolFailure';
import { keyArgument } from './toolPresentation';

const inputSchema = z.object({
  file_path: z.string().min(1).describe('The file to write.'),
  content: z.string().describe('The complete new content of the file.'),
});

export type WriteInput = z.infer<typeof inputSchema>;

export const writeTool = defineTool<WriteInput>({
  name: 'write',
  description:
    'Writes a whole file, creating it (and its folders) or replacing it; an existing file must have been read in this ' +
    "session and be unchanged since. An existing file's line endings (CRLF) and UTF-8 BOM are kept.",
  category: 'write',
  present: (input) => ({ title: 'write', summary: keyArgument(input, 'write'), icon: 'new-file', details: { kind: 'fileChange', path: input.file_path } }),
  inputSchema,
  preview(input, ctx) {
    return previewFileChange(ctx, input.file_path, 'Overwrite', (path, shown, before) => planWrite(input, path, shown, before));
  },
  async execute(input, ctx) {
    try {
      return await runWrite(input, ctx);
    } catch (err) {
      return expectedFailure(err);
    }
  },
});

async function runWrite(input: WriteInput, ctx: ToolContext) {
  const path = await ctx.workspace.resolve(input.file_path);
  const shown = ctx.workspace.display(path);
  const { change, written, notes } = await applyFileChange(ctx, path, async (before) => planWrite(input, path, shown, before));
  const lines = countLines(written);
  const what = `${change.before === null ? 'Created' : 'Overwrote'} ${shown} (${lines} line${lines === 1 ? '' : 's'}).`;
  return textResult([what, ...notes].join('\n\n'));
}

/** Content as the model wrote it, adapted to an existing file's CRLF line endings and BOM. */
function planWrite(input: WriteInput, path: string, shown: string, before: string | null): FileChange {
  if (before === null || before === '') return { path, displayPath: shown, before, after: input.content };
  const { bom, body } = splitBom(before);
  const content = splitBom(input.content).body;
  const after = bom + (detectEol(body) === '\r\n' ? withEol(content, '\r\n') : content);
  return { path, displayPath: shown, before, after };
}
