import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinTools, readOnlyToolNames } from '../../../src/core/tools/builtinTools';

describe('builtinTools', () => {
  it('ships the tools models know, with their approval categories', () => {
    const byName = Object.fromEntries(builtinTools().map((t) => [t.name, t.category]));
    expect(byName).toEqual({
      read: 'read',
      ls: 'read',
      tree: 'read',
      glob: 'read',
      grep: 'read',
      edit: 'write',
      write: 'write',
      bash: 'command',
      bash_output: 'read',
      kill_bash: 'command',
      fetch: 'network',
      todo_write: 'read',
      todo_read: 'read',
      history_search: 'read',
    });
  });

  it('allows only tools without side effects in plan mode', () => {
    expect([...readOnlyToolNames].sort()).toEqual(['fetch', 'glob', 'grep', 'history_search', 'ls', 'read', 'todo_read']);
  });

  it('has input schemas that convert to JSON Schema with the documented parameter names', () => {
    const props = (name: string) => {
      const tool = builtinTools().find((t) => t.name === name)!;
      const schema = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as { properties: Record<string, unknown>; required?: string[] };
      return { keys: Object.keys(schema.properties).sort(), required: [...(schema.required ?? [])].sort() };
    };
    expect(props('read')).toEqual({ keys: ['file_path', 'limit', 'offset'], required: ['file_path'] });
    expect(props('edit')).toEqual({ keys: ['file_path', 'new_string', 'old_string', 'replace_all'], required: ['file_path', 'new_string', 'old_string'] });
    expect(props('grep').keys).toEqual(['-A', '-B', '-C', '-i', '-n', 'glob', 'head_limit', 'output_mode', 'path', 'pattern'].sort());
    expect(props('bash')).toEqual({ keys: ['command', 'cwd', 'description', 'network', 'run_in_background', 'timeout', 'unsandboxed', 'writable'], required: ['command'] });
    expect(props('bash_output')).toEqual({ keys: ['filter', 'id'], required: ['id'] });
    expect(props('kill_bash')).toEqual({ keys: ['id'], required: ['id'] });
    expect(props('todo_write')).toEqual({ keys: ['todos'], required: ['todos'] });
    expect(props('history_search')).toEqual({ keys: ['last', 'query'], required: [] });
  });
});
