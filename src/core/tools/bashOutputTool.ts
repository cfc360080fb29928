import * as z from 'zod';
import { jobStatus, shownOutput } from './jobReport';
import { defineTool, errorResult, textResult } from './tool';
import { keyArgument, keyValueDetails } from './toolPresentation';

const inputSchema = z.object({
  id: z.string().min(1).describe('The job id bash returned, e.g. "bash_1".'),
  filter: z
    .string()
    .optional()
    .describe('Regular expression: return only matching lines (the rest is still consumed).'),
});

export type BashOutputInput = z.infer<typeof inputSchema>;

/** An elision note of MiddleTruncator: kept when filtering, so the model knows output was dropped. */
const elisionNote = /^… \[\d+ characters \(\d+ lines?\) elided from the middle of the output\] …$/;

export const bashOutputTool = defineTool<BashOutputInput>({
  name: 'bash_output',
  description:
    'Returns what a background bash job printed since the last read, and whether it still runs or how it ended.',
  category: 'read',
  present: (input) => ({ title: 'bash_output', summary: keyArgument(input, 'bash_output'), icon: 'output', details: keyValueDetails(input) }),
  inputSchema,
  async execute(input, ctx) {
    const job = ctx.jobs?.get(input.id);
    if (!job) {
      const known = ctx.jobs?.list().map((j) => j.id) ?? [];
      return errorResult(`No background job "${input.id}". ${known.length ? `Jobs: ${known.join(', ')}.` : 'No background jobs were started.'}`);
    }
    let filter: RegExp | undefined;
    if (input.filter !== undefined) {
      try {
        filter = new RegExp(input.filter);
      } catch (err) {
        return errorResult(`Invalid filter: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    let text = job.read();
    if (filter && text !== '') {
      const regex = filter;
      text = text
        .split('\n')
        .filter((line) => regex.test(line) || elisionNote.test(line))
        .join('\n');
    }
    return textResult(`${shownOutput(text, filter ? '(no new matching output)' : '(no new output)')}\n\n${jobStatus(job)}`);
  },
});
