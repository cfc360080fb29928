import * as z from 'zod';
import { jobStatus, shownOutput } from './jobReport';
import { defineTool, errorResult, textResult } from './tool';
import { keyArgument, keyValueDetails } from './toolPresentation';

const inputSchema = z.object({
  id: z.string().min(1).describe('The job id bash returned.'),
});

export type KillBashInput = z.infer<typeof inputSchema>;

export const killBashTool = defineTool<KillBashInput>({
  name: 'kill_bash',
  description:
    'Stops a background bash job and every process it started; returns what it printed since the last read.',
  category: 'command',
  present: (input) => ({ title: 'kill_bash', summary: keyArgument(input, 'kill_bash'), icon: 'debug-stop', details: keyValueDetails(input) }),
  inputSchema,
  // It only stops what this conversation started in the background.
  needsApproval: () => false,
  async execute(input, ctx) {
    const job = ctx.jobs?.get(input.id);
    if (!job) {
      const known = ctx.jobs?.list().map((j) => j.id) ?? [];
      return errorResult(`No background job "${input.id}". ${known.length ? `Jobs: ${known.join(', ')}.` : 'No background jobs were started.'}`);
    }
    const wasAlive = job.isRunning || job.leftProcesses;
    await job.stop('killed');
    const output = shownOutput(job.read(), '(no new output)');
    const head = wasAlive ? `Stopped job ${job.id}.` : `Job ${job.id} had already ended.`;
    return textResult(`${head}\n\n${output}\n\n${jobStatus(job)}`);
  },
});
