import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../errors';
import { compileGlob, hasGlobSyntax } from '../workspace/globPattern';
import { listFiles } from './search/listFiles';
import { newestFirst } from './search/newestFirst';
import { chooseSearchEngine, SearchEngineError, type SearchEngineChoice } from './search/searchEngine';
import { defineTool, errorResult, textResult, type AnyTool, type ToolContext, type ToolResult } from './tool';
import { expectedFailure } from './toolFailure';
import { keyArgument } from './toolPresentation';

export const globMaxResults = 100;
const maxListedFiles = 200_000;

const inputSchema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Glob matched against paths below `path`: "**/*.ts", "src/**/*.{ts,tsx}", "*.json" (top level only).'),
  path: z.string().min(1).optional().describe('Folder to search in (default: the current project; a pattern may start with a workspace folder\'s name).'),
});

export type GlobInput = z.infer<typeof inputSchema>;

/** `engine` is for tests and benchmarks; the agent uses 'auto'. */
export function createGlobTool(opts: { engine?: SearchEngineChoice } = {}): AnyTool {
  return defineTool<GlobInput>({
    name: 'glob',
    description:
      `Finds files by name pattern, newest first (at most ${globMaxResults}). Honours .gitignore and skips .git and ` +
      'node_modules. `*` stays within one folder, `**` spans folders, `{a,b}` gives alternatives.',
    category: 'read',
    present: (input) => ({ title: 'glob', summary: keyArgument(input, 'glob'), icon: 'search', details: { kind: 'search', pattern: input.pattern, ...(input.path ? { scope: input.path } : {}) } }),
    inputSchema,
    async preview(input, ctx) {
      const specs = await searchSpecs(input, ctx);
      return { summary: input.pattern, paths: typeof specs === 'string' ? [ctx.workspace.root] : specs.map((spec) => spec.dir) };
    },
    async execute(input, ctx) {
      try {
        return await glob(input, ctx, opts.engine ?? 'auto');
      } catch (err) {
        if (ctx.signal.aborted) return errorResult('Search cancelled.');
        if (err instanceof SearchEngineError) return errorResult(errorMessage(err));
        return expectedFailure(err);
      }
    },
  });
}

interface SearchSpec {
  /** Folder the glob is matched below, or the file a literal pattern names. */
  dir: string;
  /** The glob part after the literal leading folders; empty for a literal path. */
  rest: string;
}

async function glob(input: GlobInput, ctx: ToolContext, choice: SearchEngineChoice): Promise<ToolResult> {
  const specs = await searchSpecs(input, ctx);
  if (typeof specs === 'string') return errorResult(specs);
  const engine = await chooseSearchEngine(choice, ctx.host);
  const found = new Set<string>();
  let truncated = false;
  const ignoreCase = process.platform === 'win32' || process.platform === 'darwin';
  for (const spec of specs) {
    const info = await statOrUndefined(spec.dir);
    if (!info) continue;
    if (spec.rest === '') {
      if (info.isFile()) found.add(spec.dir);
      continue;
    }
    if (!info.isDirectory()) continue;
    const regex = compileGlob(spec.rest, { braces: true, ignoreCase });
    const listing = await listFiles([spec.dir], engine, { signal: ctx.signal, maxFiles: maxListedFiles });
    truncated ||= listing.truncated;
    for (const file of listing.files) {
      if (regex.test(relative(spec.dir, file).split(sep).join('/'))) found.add(file);
    }
  }
  const notes: string[] = [];
  if (truncated) notes.push(`The listing stopped after ${maxListedFiles} files; give a narrower path.`);
  if (found.size === 0) return textResult([`No files match ${JSON.stringify(input.pattern)}.`, ...notes].join('\n\n'));
  const sorted = await newestFirst([...found], (p) => ctx.workspace.display(p));
  const shown = sorted.slice(0, globMaxResults).map((p) => ctx.workspace.display(p));
  if (sorted.length > globMaxResults) {
    notes.unshift(`Showing the ${globMaxResults} newest of ${sorted.length} matches. Use a more specific pattern or path.`);
  }
  return textResult([shown.join('\n'), ...notes].join('\n\n'));
}

/** Splits literal leading folders off the pattern (resolved safely) from the glob proper. */
async function searchSpecs(input: GlobInput, ctx: ToolContext): Promise<SearchSpec[] | string> {
  const segments = input.pattern.split('/');
  let firstGlob = segments.findIndex((s) => hasGlobSyntax(s));
  if (firstGlob < 0) firstGlob = segments.length;
  const prefix = segments.slice(0, firstGlob).join('/');
  const rest = segments.slice(firstGlob).join('/');
  if (segments.slice(firstGlob).includes('..')) {
    return '".." is only allowed before the first wildcard of a glob; or pass the folder as path.';
  }
  if (isAbsolute(input.pattern)) return [{ dir: await ctx.workspace.resolve(prefix || '/'), rest }];
  let bases: string[];
  let relPrefix = prefix;
  if (input.path) {
    bases = [await ctx.workspace.resolve(input.path)];
  } else {
    // The literal start goes through the workspace's path rules: a folder-name prefix, `./`, ambiguity.
    bases = [prefix ? await ctx.workspace.resolve(prefix) : ctx.workspace.root];
    relPrefix = '';
  }
  const specs: SearchSpec[] = [];
  for (const base of bases) {
    specs.push({ dir: relPrefix ? await ctx.workspace.resolve(join(base, relPrefix)) : base, rest });
  }
  return specs;
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return undefined;
    throw err;
  }
}
