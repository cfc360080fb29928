import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { mcpTool } from '../../../src/core/mcp/mcpTool';
import { acceptPluginTools } from '../../../src/core/plugins/pluginTools';
import { builtinTools, presentByName } from '../../../src/core/tools/builtinTools';
import { defineTool, textResult } from '../../../src/core/tools/tool';
import { presentCall } from '../../../src/core/tools/toolPresentation';
import { toolDisplaySchema } from '../../../src/protocol/toolDisplay';

const sampleInputs: Record<string, unknown> = {
  read: { file_path: 'src/app.ts', offset: 40, limit: 20 },
  ls: { path: 'src' },
  tree: { path: 'src', depth: 2 },
  glob: { pattern: '**/*.ts', path: 'src' },
  grep: { pattern: 'TODO', path: 'src' },
  edit: { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' },
  write: { file_path: 'notes.md', content: 'hi' },
  bash: { command: 'npm test\n  --watch', cwd: 'api', description: 'Run the tests', run_in_background: true },
  bash_output: { id: 'bash_1' },
  kill_bash: { id: 'bash_1' },
  fetch: { url: 'https://example.com/docs' },
  todo_write: { todos: [{ id: '1', content: 'Write it', status: 'in_progress' }, { id: '2', content: 'Test it', status: 'pending' }] },
  todo_read: {},
  history_search: { query: 'schema' },
};

const mcpBinding = (info: { name: string; title?: string; readOnly: boolean }) =>
  mcpTool({
    server: 'github',
    info: { ...info, inputSchema: { type: 'object' } },
    name: `mcp__github__${info.name}`,
    timeoutMs: 1000,
    caps: { text: 1000, image: 1000 },
    call: async () => ({ content: [] }),
  });

describe('tool presentation', () => {
  it('gives every built-in tool a card of its own that the page accepts', () => {
    for (const tool of builtinTools()) {
      const input = sampleInputs[tool.name];
      expect(input, `a sample input for ${tool.name}`).toBeDefined();
      expect(tool.present, `${tool.name} draws its card`).toBeDefined();
      const look = presentCall(tool, tool.name, input);
      expect(toolDisplaySchema.parse(look)).toEqual(look);
      expect(look.title).toBe(tool.name);
    }
  });

  it('draws each call with the renderer of its kind, keeping the one-line summary the header showed', () => {
    expect(presentByName('bash', sampleInputs.bash)).toEqual({
      title: 'bash',
      summary: 'npm test --watch',
      icon: 'terminal',
      details: { kind: 'command', command: 'npm test\n  --watch', cwd: 'api', description: 'Run the tests', background: true },
    });
    expect(presentByName('read', sampleInputs.read).details).toEqual({ kind: 'fileChange', path: 'src/app.ts', range: '40–59' });
    expect(presentByName('grep', sampleInputs.grep)).toMatchObject({ summary: 'src', details: { kind: 'search', pattern: 'TODO', scope: 'src' } });
    expect(presentByName('fetch', sampleInputs.fetch).details).toEqual({ kind: 'fetchedPage', url: 'https://example.com/docs' });
    expect(presentByName('todo_write', sampleInputs.todo_write)).toMatchObject({
      summary: '2 items',
      details: { kind: 'todoList', items: [{ content: 'Write it', status: 'in_progress' }, { content: 'Test it', status: 'pending' }] },
    });
  });

  it('falls back to the generic key/value card for input its tool would refuse and for unknown tools', () => {
    expect(presentByName('bash', { command: 42 })).toEqual({
      title: 'bash',
      summary: 'bash',
      icon: 'tools',
      details: { kind: 'keyValue', entries: [{ key: 'command', value: '42' }] },
    });
    expect(presentByName('mystery', { path: 'a/b', n: { deep: true } })).toEqual({
      title: 'mystery',
      summary: 'a/b',
      icon: 'tools',
      details: { kind: 'keyValue', entries: [{ key: 'path', value: 'a/b' }, { key: 'n', value: '{"deep":true}' }] },
    });
    const throws = defineTool<{ x: string }>({
      name: 'throws',
      description: 'd',
      category: 'read',
      inputSchema: z.object({ x: z.string() }),
      present: () => {
        throw new Error('bad card');
      },
      execute: async () => textResult('ok'),
    });
    expect(presentCall(throws, 'throws', { x: 'y' }).details).toEqual({ kind: 'keyValue', entries: [{ key: 'x', value: 'y' }] });
  });

  it('gives MCP tools a key/value card titled by server and annotation title, marked by whether they only read', () => {
    const search = mcpBinding({ name: 'search_issues', title: 'Search issues', readOnly: true });
    expect(presentCall(search, search.name, { query: 'crash', limit: 5 })).toEqual({
      title: 'github: Search issues',
      summary: 'crash',
      icon: 'plug',
      details: { kind: 'keyValue', entries: [{ key: 'query', value: 'crash' }, { key: 'limit', value: '5' }] },
    });
    const create = mcpBinding({ name: 'create_issue', readOnly: false });
    expect(presentCall(create, create.name, { title: 'x' })).toMatchObject({ title: 'github: create_issue', summary: 'create_issue', icon: 'zap' });
  });

  it('gives plugin tools the key/value card, not one they draw themselves', () => {
    const [stamp] = acceptPluginTools(
      [
        {
          name: 'stamp',
          description: 'Stamps a file.',
          category: 'write',
          inputSchema: z.object({ file: z.string() }),
          present: () => ({ title: '<b>mine</b>', summary: 's', icon: 'not an icon!', details: { kind: 'keyValue', entries: [] } }),
          execute: async () => textResult('ok'),
        },
      ],
      () => undefined,
    );
    expect(presentCall(stamp, 'stamp', { file: 'a.txt' })).toEqual({
      title: 'stamp',
      summary: 'stamp',
      icon: 'extensions',
      details: { kind: 'keyValue', entries: [{ key: 'file', value: 'a.txt' }] },
    });
  });
});
