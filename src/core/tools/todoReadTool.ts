import * as z from 'zod';
import { renderTodos } from './todoFormat';
import { defineTool, textResult } from './tool';

const inputSchema = z.object({});

export type TodoReadInput = z.infer<typeof inputSchema>;

export const todoReadTool = defineTool<TodoReadInput>({
  name: 'todo_read',
  description: 'Shows your current todo list for this task.',
  category: 'read',
  inputSchema,
  async execute(_input, ctx) {
    return textResult(renderTodos(ctx.todos.get()));
  },
});
