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
import { presentCall, type ToolPresentation } from './toolPresentation';
import { todoReadTool } from './todoReadTool';
import { todoWriteTool } from './todoWriteTool';
import { treeTool } from './treeTool';
import { writeTool } from './writeTool';

/** Every tool Keel ships, in the order the model sees them. */
export function builtinTools(): AnyTool[] {
  return [
    readTool,
    lsTool,
    treeTool,
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

let byName: ReadonlyMap<string, AnyTool> | undefined;

function builtinByName(): ReadonlyMap<string, AnyTool> {
  byName ??= new Map(builtinTools().map((t) => [t.name, t]));
  return byName;
}

/**
 * Whether plan mode offers a tool, from its category: tools that read, and Keel's own network
 * tools (fetch); not an MCP or plugin tool of category `network`, which may change things elsewhere.
 */
export function allowedInPlanMode(tool: AnyTool): boolean {
  return tool.category === 'read' || (tool.category === 'network' && builtinByName().get(tool.name) === tool);
}

/** Built-in tools without side effects, even in the session (unlike todo_write and bash_output, which plan mode also offers). */
export const readOnlyToolNames: readonly string[] = ['read', 'ls', 'glob', 'grep', 'fetch', 'todo_read', 'history_search'];

/** True for the name of a tool Keel itself ships (its card can be drawn again from the name alone). */
export function isBuiltinTool(name: string): boolean {
  return builtinByName().has(name);
}

/** A call's card where only its name and input are known (a resumed conversation): a built-in tool's own, else the generic one. */
export function presentByName(name: string, input: unknown): ToolPresentation {
  return presentCall(builtinByName().get(name), name, input);
}
