import * as z from 'zod';
import { excerpt, maxLast, maxOutputChars, maxResults, searchHistory } from '../history/historySearch';
import { defineTool, errorResult, textResult } from './tool';
import { keyArgument, keyValueDetails } from './toolPresentation';

const inputSchema = z
  .object({
    query: z.string().optional().describe('Keywords (case-insensitive; messages with all of them first).'),
    last: z.number().int().min(1).max(maxLast).optional().describe('Only the newest N messages (matching the query, if any).'),
  })
  .refine((i) => (i.query?.trim() ?? '') !== '' || i.last !== undefined, { message: 'Give a query, a number of last messages, or both.' });

export type HistorySearchInput = z.infer<typeof inputSchema>;

export const historySearchTool = defineTool<HistorySearchInput>({
  name: 'history_search',
  description:
    'Searches this conversation\'s earlier messages, including those compacted or trimmed out of your context: ' +
    `requests, answers, tool calls and results. At most ${maxResults} matches.`,
  category: 'read',
  present: (input) => ({ title: 'history_search', summary: keyArgument(input, 'history_search'), icon: 'history', details: keyValueDetails(input) }),
  inputSchema,
  async execute(input, ctx) {
    if (!ctx.history) return errorResult('This conversation has no searchable history here.');
    const all = ctx.history.messages();
    const query = input.query?.trim() || undefined;
    const { hits, matched, mode } = searchHistory(all, { query, last: input.last });
    if (hits.length === 0) return textResult(`No message of this conversation (${all.length} messages) contains ${JSON.stringify(query)}.`);
    const what =
      mode === 'last'
        ? `The last ${hits.length} of ${all.length} messages`
        : `${matched} message${matched === 1 ? '' : 's'} of ${all.length} ${mode === 'all' ? 'contain' : 'contain some of'} ${JSON.stringify(query)}` +
          (hits.length < matched ? `; showing ${hits.length}${mode === 'all' ? ', the newest' : ', the best matches'}` : '');
    const blocks: string[] = [];
    let chars = 0;
    let shown = 0;
    for (const m of hits) {
      const block = `--- #${m.index} ${m.role} · exchange ${m.exchange} · ${m.ts} · id ${m.id}\n${excerpt(m.text, query)}`;
      if (chars + block.length > maxOutputChars && shown > 0) break;
      blocks.push(block);
      chars += block.length;
      shown++;
    }
    const more = shown < hits.length ? `\n[${hits.length - shown} more not shown to keep this short; narrow the query]` : '';
    return textResult(`${what} (oldest first):\n${blocks.join('\n')}${more}`);
  },
});
