// The five-message conversation with tool calls that the append-only request tests drive through
// each wire: read, write, list, search, thanks; the first answer reasons before its call.
import { expect } from 'vitest';
import type { Project } from '../../../src/core/project';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { recorder } from '../llmsContext/projectHarness';

export const fiveMessageTurns: Turn[] = [
  reply.tool('read', { file_path: 'a.txt' }, { reasoning: 'I should read the file first.' }),
  reply.text('It says alpha.'),
  reply.tool('write', { file_path: 'b.txt', content: 'beta\n' }),
  reply.text('Wrote b.txt.'),
  reply.tool('ls', { path: '.' }),
  reply.text('Two files.'),
  reply.tool('grep', { pattern: 'alpha' }),
  reply.text('Found it in a.txt.'),
  reply.text('Done.'),
];

/** Sends the five messages, approving each call, and expects every run to complete. */
export async function sendFiveMessages(project: Project): Promise<void> {
  for (const text of ['read a.txt', 'write b.txt', 'list the files', 'find alpha', 'thanks']) {
    const result = await project.send(text, recorder([{ approved: true }]));
    expect(result.status, result.error?.message).toBe('completed');
  }
}
