import * as z from 'zod';
import { renderTodos } from './todoFormat';
import { defineTool, textResult } from './tool';
import { keyArgument } from './toolPresentation';

const todoSchema = z.object({
  id: z.string().min(1).describe('Stable id.'),
  content: z.string().min(1).describe('What to do, in one line.'),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

const inputSchema = z.object({
  todos: z
    .array(todoSchema)
    .describe('The whole list.')
    .refine((items) => new Set(items.map((i) => i.id)).size === items.length, { message: 'todo ids must be unique' }),
});

export type TodoWriteInput = z.infer<typeof inputSchema>;

export const todoWriteTool = defineTool<TodoWriteInput>({
  name: 'todo_write',
  description:
    'Replaces your todo list (shown to the person), for work with several steps: one item in_progress at a time; ' +
    'mark items completed as soon as they are done.',
  category: 'read',
  present: (input) => ({ title: 'todo_write', summary: keyArgument(input, 'todo_write'), icon: 'checklist', details: { kind: 'todoList', items: input.todos.map(({ content, status }) => ({ content, status })) } }),
  inputSchema,
  async execute(input, ctx) {
    const parsed = inputSchema.safeParse(input);
    if (!parsed.success) return { output: `Invalid todo list: ${z.prettifyError(parsed.error)}`, isError: true };
    ctx.todos.set(parsed.data.todos);
    return textResult(renderTodos(ctx.todos.get()));
  },
});
