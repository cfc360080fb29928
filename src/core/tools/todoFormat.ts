import type { TodoItem } from './todoStore';

const marks = { pending: '[ ]', in_progress: '[~]', completed: '[x]' } as const;

/** The checklist as the model and the CLI see it. */
export function renderTodos(items: readonly TodoItem[]): string {
  if (items.length === 0) return 'The todo list is empty.';
  const done = items.filter((i) => i.status === 'completed').length;
  const lines = items.map((i) => `${marks[i.status]} ${i.content}${i.status === 'in_progress' ? ' (in progress)' : ''}`);
  return `Todos (${done}/${items.length} done):\n${lines.join('\n')}`;
}
