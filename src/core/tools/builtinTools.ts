import { bashOutputTool } from './bashOutputTool';
import { bashTool } from './bashTool';
import { editTool } from './editTool';
import { fetchTool } from './fetchTool';
import { createGlobTool } from './globTool';
import { createGrepTool } from './grepTool';
import { historySearchTool } from './historySearchTool';
import { killBashTool } from './killBashTool';
import { lsTool } from './lsTool';
import { readTool } from './readTool';
import type { AnyTool } from './tool';
import { todoReadTool } from './todoReadTool';
import { todoWriteTool } from './todoWriteTool';
import { writeTool } from './writeTool';

/** Every tool Keel ships, in the order the model sees them. */
export function builtinTools(): AnyTool[] {
  return [
    readTool,
    lsTool,
    createGlobTool(),
    createGrepTool(),
    editTool,
    writeTool,
    bashTool,
    bashOutputTool,
    killBashTool,
    fetchTool,
    todoWriteTool,
    todoReadTool,
    historySearchTool,
  ];
}

/** Tools allowed in plan mode: they look but change nothing outside the session. */
export const readOnlyToolNames: readonly string[] = ['read', 'ls', 'glob', 'grep', 'fetch', 'todo_read', 'history_search'];
