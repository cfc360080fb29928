import * as z from 'zod';
import { firstMissing } from './search/firstMissing';
import { errorMessage } from '../errors';
import { createGlobFilter } from './search/globFilter';
import { formatGrep } from './search/grepFormat';
import { grepWithJs } from './search/grepJs';
import { grepWithRipgrep } from './search/grepRipgrep';
import { GrepPatternError, type GrepMode, type GrepQuery } from './search/grepTypes';
import { chooseSearchEngine, SearchEngineError, type SearchEngineChoice } from './search/searchEngine';
import { defineTool, errorResult, textResult, type AnyTool, type ToolContext, type ToolResult } from './tool';
import { expectedFailure } from './toolFailure';
import { keyArgument } from './toolPresentation';

const contextLines = z.number().int().min(0).max(100).optional();

const inputSchema = z.object({
  pattern: z.string().min(1).describe('Regular expression, matched within single lines.'),
  path: z.string().min(1).optional().describe('File or folder to search (default: the current project).'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only files matching this glob, e.g. "*.ts", "*.{ts,tsx}", "src/**/*.js"; a leading ! excludes instead.'),
  output_mode: z
    .enum(['files_with_matches', 'content', 'count'])
    .optional()
    .describe('files_with_matches (default): paths, newest first; content: matching lines; count: matches per file.'),
  '-i': z.boolean().optional().describe('Ignore case.'),
  '-n': z.boolean().optional().describe('Line numbers in content mode (default true).'),
  '-A': contextLines.describe('Lines after each match (content mode).'),
  '-B': contextLines.describe('Lines before each match (content mode).'),
  '-C': contextLines.describe('Lines before and after each match (content mode).'),
  head_limit: z.number().int().min(1).optional().describe('Only the first N files, lines or counts.'),
});

export type GrepInput = z.infer<typeof inputSchema>;

/** `engine` is for tests and benchmarks; the agent uses 'auto'. */
export function createGrepTool(opts: { engine?: SearchEngineChoice } = {}): AnyTool {
  return defineTool<GrepInput>({
    name: 'grep',
    description:
      'Searches file contents with a ripgrep regular expression (.gitignore honoured; .git, node_modules and binary ' +
      'files skipped). Prefer it over grep or rg through bash.',
    category: 'read',
    present: (input) => ({ title: 'grep', summary: keyArgument(input, 'grep'), icon: 'search', details: { kind: 'search', pattern: input.pattern, ...(input.path ? { scope: input.path } : {}) } }),
    inputSchema,
    async preview(input, ctx) {
      const roots = [input.path ? await ctx.workspace.resolve(input.path) : ctx.workspace.root];
      return { summary: `${input.pattern}${input.path ? ` in ${input.path}` : ''}`, paths: roots };
    },
    async execute(input, ctx) {
      try {
        return await grep(input, ctx, opts.engine ?? 'auto');
      } catch (err) {
        if (ctx.signal.aborted) return errorResult('Search cancelled.');
        if (err instanceof GrepPatternError || err instanceof SearchEngineError) return errorResult(errorMessage(err));
        return expectedFailure(err);
      }
    },
  });
}

async function grep(input: GrepInput, ctx: ToolContext, choice: SearchEngineChoice): Promise<ToolResult> {
  if (/[\r\n]/.test(input.pattern)) {
    return errorResult('The pattern contains a line break; grep matches within single lines. Search for one line at a time.');
  }
  const roots = [input.path ? await ctx.workspace.resolve(input.path) : ctx.workspace.root];
  const missing = await firstMissing(roots);
  if (missing) return errorResult(`No such file or folder: ${ctx.workspace.display(missing)}.`);
  const mode: GrepMode = input.output_mode ?? 'files_with_matches';
  const query: GrepQuery = {
    pattern: input.pattern,
    ignoreCase: input['-i'] ?? false,
    mode,
    before: input['-B'] ?? input['-C'] ?? 0,
    after: input['-A'] ?? input['-C'] ?? 0,
    roots,
    glob: input.glob ? createGlobFilter(input.glob) : undefined,
  };
  const engine = await chooseSearchEngine(choice, ctx.host);
  const outcome =
    engine.kind === 'ripgrep' ? await grepWithRipgrep(engine.rgPath, query, ctx.signal) : await grepWithJs(query, ctx.signal);
  const text = await formatGrep(outcome, {
    mode,
    lineNumbers: input['-n'] ?? true,
    withContext: query.before > 0 || query.after > 0,
    headLimit: input.head_limit,
    display: (p) => ctx.workspace.display(p),
  });
  return textResult(text);
}
