import * as z from 'zod';
import { errorMessage } from '../errors';
import type { AnyTool, ToolCategory, ToolContext, ToolPreview } from '../tools/tool';
import { genericPresentation } from '../tools/toolPresentation';

const categories: readonly ToolCategory[] = ['read', 'write', 'command', 'network'];
/** What the model APIs accept as a function name. */
const toolName = /^[A-Za-z0-9_-]{1,64}$/;

type Log = (level: 'warn' | 'error', message: string) => void;

const accepted = new WeakMap<object, AnyTool>();

/**
 * Tools from plugins (other extensions, code Keel does not own), made fit for the same
 * rules as built-in ones: a tool without a valid name, description, category, zod input
 * schema or execute function is left out with a log line instead of breaking the run, and
 * every path its preview names is resolved against the workspace (symlinks followed),
 * so a path outside is refused and a protected one always asks.
 */
export function acceptPluginTools(tools: unknown[], log: Log): AnyTool[] {
  const out: AnyTool[] = [];
  for (const candidate of tools) {
    if (typeof candidate === 'object' && candidate !== null) {
      const known = accepted.get(candidate);
      if (known) {
        out.push(known);
        continue;
      }
    }
    const problem = invalidBecause(candidate);
    if (problem) {
      log('error', `A plugin tool was left out: ${problem}`);
      continue;
    }
    const tool = candidate as AnyTool;
    const checked = withCheckedPaths(tool);
    accepted.set(tool, checked);
    out.push(checked);
  }
  return out;
}

function invalidBecause(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it is not an object.';
  const t = value as Partial<Record<keyof AnyTool, unknown>>;
  const name = typeof t.name === 'string' ? t.name : undefined;
  if (!name || !toolName.test(name)) return `its name ${JSON.stringify(t.name)} is not 1-64 letters, digits, "_" or "-".`;
  if (typeof t.description !== 'string' || t.description.trim() === '') return `"${name}" has no description.`;
  if (typeof t.category !== 'string' || !categories.includes(t.category as ToolCategory)) {
    return `"${name}" must declare its category (${categories.join(', ')}), not ${JSON.stringify(t.category)}.`;
  }
  if (typeof t.execute !== 'function') return `"${name}" has no execute function.`;
  for (const hook of ['preview', 'needsApproval'] as const) {
    if (t[hook] !== undefined && typeof t[hook] !== 'function') return `"${name}".${hook} is not a function.`;
  }
  const schema = t.inputSchema as { safeParse?: unknown } | undefined;
  if (typeof schema?.safeParse !== 'function') return `"${name}" needs a zod (v4) inputSchema.`;
  try {
    z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' });
  } catch (err) {
    return `"${name}": its inputSchema cannot be described to the model (${errorMessage(err)}).`;
  }
  return undefined;
}

function withCheckedPaths(tool: AnyTool): AnyTool {
  const checked: AnyTool = {
    name: tool.name,
    description: tool.description,
    category: tool.category,
    inputSchema: tool.inputSchema,
    execute: (input, ctx) => tool.execute(input, ctx),
    // A plugin's own `present` is not used: what the page draws comes from Keel, the arguments as key/value.
    present: (input) => genericPresentation(tool.name, input, { icon: 'extensions' }),
  };
  if (tool.needsApproval) checked.needsApproval = (input, ctx) => tool.needsApproval!(input, ctx);
  const preview = tool.preview;
  if (preview) {
    checked.preview = async (input: unknown, ctx: ToolContext): Promise<ToolPreview> => {
      const seen = await preview.call(tool, input, ctx);
      // Workspace.resolve refuses a path outside the workspace: the call becomes a tool error.
      const paths: string[] = [];
      for (const path of Array.isArray(seen?.paths) ? seen.paths : []) paths.push(await ctx.workspace.resolve(String(path)));
      const out: ToolPreview = { summary: typeof seen?.summary === 'string' ? seen.summary : tool.name, paths };
      if (seen?.change) {
        const path = await ctx.workspace.resolve(seen.change.path);
        out.change = { ...seen.change, path, displayPath: ctx.workspace.display(path) };
        if (!paths.includes(path)) paths.push(path);
      }
      return out;
    };
  }
  return checked;
}
