import * as z from 'zod';
import { renderTodos } from './todoFormat';
import { defineTool, textResult } from './tool';
import { keyArgument, keyValueDetails } from './toolPresentation';

const inputSchema = z.object({});

export type TodoReadInput = z.infer<typeof inputSchema>;

export const todoReadTool = defineTool<TodoReadInput>({
  name: 'todo_read',
  description: 'Shows your current todo list for this task.',
  category: 'read',
  present: (input) => ({ title: 'todo_read', summary: keyArgument(input, 'todo_read'), icon: 'checklist', details: keyValueDetails(input) }),
  inputSchema,
  async execute(_input, ctx) {
    return textResult(renderTodos(ctx.todos.get()));
  },
});
