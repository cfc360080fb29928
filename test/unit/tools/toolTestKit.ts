import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createFsHost } from '../../../src/core/fsHost';
import type { Host } from '../../../src/core/host';
import { FileReadTracker } from '../../../src/core/tools/fileReadTracker';
import { TodoStore } from '../../../src/core/tools/todoStore';
import type { AnyTool, ToolContext, ToolResult } from '../../../src/core/tools/tool';
import { Workspace } from '../../../src/core/workspace/workspace';

/** A real temp folder as a one-folder workspace, with a context for calling tools. */
export interface ToolEnv {
  root: string;
  workspace: Workspace;
  host: Host;
  reads: FileReadTracker;
  todos: TodoStore;
  logs: string[];
  file(rel: string, content: string | Buffer): Promise<string>;
  ctx(extra?: Partial<ToolContext>): ToolContext;
  /** Validates input with the tool's schema, then runs preview (if any) and execute like Project does. */
  run(tool: AnyTool, input: unknown, extra?: Partial<ToolContext>): Promise<ToolResult>;
  cleanup(): Promise<void>;
}

export async function createToolEnv(prefix = 'keel-tools-'): Promise<ToolEnv> {
  const root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const workspace = await Workspace.create([{ path: root }]);
  const logs: string[] = [];
  const host = createFsHost({ log: (level, message) => logs.push(`${level}: ${message}`) });
  const reads = new FileReadTracker();
  const todos = new TodoStore();
  const ctx = (extra: Partial<ToolContext> = {}): ToolContext => ({
    signal: new AbortController().signal,
    workspace,
    host,
    reads,
    todos,
    toolCallId: 'call-1',
    ...extra,
  });
  return {
    root,
    workspace,
    host,
    reads,
    todos,
    logs,
    async file(rel, content) {
      const path = join(root, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
      return path;
    },
    ctx,
    async run(tool, input, extra = {}) {
      const parsed = tool.inputSchema.parse(input);
      const c = ctx(extra);
      if (tool.preview && !extra.preview) {
        try {
          c.preview = await tool.preview(parsed, c);
        } catch (err) {
          return { output: err instanceof Error ? err.message : String(err), isError: true };
        }
      }
      return tool.execute(parsed, c);
    },
    async cleanup() {
      await rm(root, { recursive: true, force: true });
    },
  };
}

export function textOf(result: ToolResult): string {
  if (typeof result.output === 'string') return result.output;
  return result.output.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}]`)).join('\n');
}
