import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TodoStore, type TodoItem } from '../../../src/core/tools/todoStore';
import { todoReadTool } from '../../../src/core/tools/todoReadTool';
import { todoWriteTool } from '../../../src/core/tools/todoWriteTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv();
});
afterEach(async () => {
  await env.cleanup();
});

describe('TodoStore', () => {
  it('notifies listeners until they unsubscribe', () => {
    const store = new TodoStore();
    const seen: (readonly TodoItem[])[] = [];
    const off = store.onChange((items) => seen.push(items));
    store.set([{ id: '1', content: 'a', status: 'pending' }]);
    off();
    store.set([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual([{ id: '1', content: 'a', status: 'pending' }]);
    expect(store.get()).toEqual([]);
  });

  it('does not let callers mutate the stored list', () => {
    const store = new TodoStore();
    const items: TodoItem[] = [{ id: '1', content: 'a', status: 'pending' }];
    store.set(items);
    items[0].content = 'changed';
    expect(store.get()[0].content).toBe('a');
  });
});

describe('todo_write / todo_read', () => {
  it('replaces the list, renders a checklist and reads it back', async () => {
    const todos = [
      { id: '1', content: 'Write the parser', status: 'completed' },
      { id: '2', content: 'Test it', status: 'in_progress' },
      { id: '3', content: 'Ship', status: 'pending' },
    ];
    const written = await env.run(todoWriteTool, { todos });
    expect(written.isError).toBeFalsy();
    const expected = 'Todos (1/3 done):\n[x] Write the parser\n[~] Test it (in progress)\n[ ] Ship';
    expect(textOf(written)).toBe(expected);
    expect(env.todos.get().map((t) => t.id)).toEqual(['1', '2', '3']);
    expect(textOf(await env.run(todoReadTool, {}))).toBe(expected);
  });

  it('rejects duplicate ids and unknown statuses', () => {
    expect(todoWriteTool.inputSchema.safeParse({ todos: [{ id: '1', content: 'a', status: 'pending' }, { id: '1', content: 'b', status: 'pending' }] }).success).toBe(false);
    expect(todoWriteTool.inputSchema.safeParse({ todos: [{ id: '1', content: 'a', status: 'done' }] }).success).toBe(false);
  });

  it('says when the list is empty', async () => {
    expect(textOf(await env.run(todoReadTool, {}))).toBe('The todo list is empty.');
  });
});
