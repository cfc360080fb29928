import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import { FileReadTracker } from '../../../src/core/tools/fileReadTracker';
import { createGlobTool } from '../../../src/core/tools/globTool';
import { lsTool } from '../../../src/core/tools/lsTool';
import { readTool } from '../../../src/core/tools/readTool';
import type { AnyTool, ToolContext, ToolResult } from '../../../src/core/tools/tool';
import { TodoStore } from '../../../src/core/tools/todoStore';
import { Workspace } from '../../../src/core/workspace/workspace';

// ls, glob and read in a two-folder workspace: the current project by default, another folder by its name.
let base: string;
let workspace: Workspace;

async function put(rel: string, content = ''): Promise<void> {
  await mkdir(dirname(join(base, rel)), { recursive: true });
  await writeFile(join(base, rel), content);
}

function ctx(ws: Workspace): ToolContext {
  return { signal: new AbortController().signal, workspace: ws, host: createFsHost(), reads: new FileReadTracker(), todos: new TodoStore(), toolCallId: 't' };
}

async function run(tool: AnyTool, input: unknown, ws: Workspace = workspace): Promise<ToolResult> {
  return tool.execute(tool.inputSchema.parse(input), ctx(ws));
}

const text = (r: ToolResult): string => (typeof r.output === 'string' ? r.output : JSON.stringify(r.output));

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'keel-mr-tools-')));
  await put('web/src/app.ts', 'export const app = 1;\n');
  await put('web/index.html', '<html></html>\n');
  await put('api/src/server.go', 'package main\n');
  await put('api/go.mod', 'module api\n');
  workspace = await Workspace.create([{ path: join(base, 'web') }, { path: join(base, 'api') }]);
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('tools in a multi-root workspace', () => {
  it('ls lists the current project by default and names the other folders; a folder name lists that folder', async () => {
    expect(text(await run(lsTool, {}))).toBe('web/ (2 entries)\nindex.html\nsrc/\n\n(This is the current project web. Other workspace folders: api/; list one with path "api/".)');
    expect(text(await run(lsTool, { path: 'api' }))).toBe('api/ (2 entries)\ngo.mod\nsrc/');
    expect(text(await run(lsTool, {}, workspace.withCurrent('api')))).toMatch(/^api\/ \(2 entries\)\ngo\.mod\nsrc\/\n\n\(This is the current project api\. Other workspace folders: web\/;/);
  });

  it('glob searches the current project by default and another folder through a name prefix or path', async () => {
    const glob = createGlobTool({ engine: 'js' });
    expect(text(await run(glob, { pattern: '**/*.*' })).split('\n').sort()).toEqual(['web/index.html', 'web/src/app.ts']);
    expect(text(await run(glob, { pattern: 'api/**/*.go' }))).toBe('api/src/server.go');
    expect(text(await run(glob, { pattern: '*.mod', path: 'api' }))).toBe('api/go.mod');
    expect(text(await run(glob, { pattern: 'src/*' }, workspace.withCurrent('api')))).toBe('api/src/server.go');
  });

  it('refuses an ambiguous prefix in glob and read with the spellings that work', async () => {
    await put('web/api/notes.txt', 'inside web\n');
    const glob = createGlobTool({ engine: 'js' });
    const globbed = await run(glob, { pattern: 'api/**/*' });
    expect(globbed.isError).toBe(true);
    expect(text(globbed)).toMatch(/ambiguous.*"\.\/api"/s);
    const read = await run(readTool, { file_path: 'api/notes.txt' });
    expect(read.isError).toBe(true);
    expect(text(read)).toContain('"./api/notes.txt"');
    expect(text(await run(readTool, { file_path: './api/notes.txt' }))).toContain('inside web');
    expect(text(await run(readTool, { file_path: join(base, 'api', 'go.mod') }))).toContain('module api');
  });
});
