import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { ModelMessage, UserContent } from 'ai';
import type { Context } from './context';
import { errorMessage, KeelError } from './errors';
import type { ChangeJournal } from './journal/changeJournal';
import type { ConversationContext } from './llmsContext/conversationContext';
import { contextUpdate, shownContext, type ContextUpdate } from './llmsContext/sentContext';
import { changedResourceSections } from './llmsContext/resourceSections';
import type { LoopToolSpec } from './loop/loopTypes';
import { toDisplayText } from './loop/toolOutput';
import { narrowTools } from './setup/commandFiles';
import { attachMentions } from './mentions/attachMentions';
import { createSkillTool } from './tools/skillTool';
import { expandMentions } from './mentions/expandMentions';
import { mentionNotesOf, type MentionNote } from './mentions/mentionTypes';
import type { ResolvedModel } from './model/modelRegistry';
import type { RunMode } from './plugins/pluginTypes';
import { acceptPluginTools } from './plugins/pluginTools';
import type { ProjectEvent, RunOptions, UserInput } from './projectTypes';
import type { MessageMeta } from './session/sessionRecords';
import { buildSystemPrompt } from './systemPrompt';
import { allowedInPlanMode, builtinTools } from './tools/builtinTools';
import type { FileReadTracker } from './tools/fileReadTracker';
import type { AnyTool } from './tools/tool';
import { presentCall } from './tools/toolPresentation';
import type { ToolCalls } from './toolCalls';
import type { Workspace } from './workspace/workspace';

/** The tools a run offers: built-in, plugins', MCP servers'; read-only in plan mode, fewer without trust. */
export async function offeredTools(ctx: Context, mode: RunMode): Promise<AnyTool[]> {
  const offeredByPlugins = await ctx.plugins.apply<unknown[]>({ hook: 'tool', memo: [], args: [{ mode }], type: 'SeriesMerge' });
  const fromPlugins = acceptPluginTools(offeredByPlugins, (level, message) => ctx.host.log(level, message));
  // The skill tool is offered only where there are skills (the first request grows only by their list).
  const skills = (await ctx.llmsContext.skills()).length ? [createSkillTool(() => ctx.llmsContext.skills())] : [];
  const all = [...builtinTools(), ...skills, ...fromPlugins, ...(await ctx.mcp.tools())];
  const byName = new Map<string, AnyTool>();
  for (const t of all) {
    if (byName.has(t.name)) {
      ctx.host.log('warn', `Tool "${t.name}" is defined twice; the first definition is used.`);
      continue;
    }
    byName.set(t.name, t);
  }
  return usableTools(ctx, mode, [...byName.values()]);
}

/** Of `tools`, those a run in `mode` may use: read-only ones in plan mode, no writes or commands without trust. */
export function usableTools(ctx: Context, mode: RunMode, tools: AnyTool[]): AnyTool[] {
  let out = tools;
  if (mode === 'plan') out = out.filter(allowedInPlanMode);
  if (!ctx.workspaceTrusted) out = out.filter((t) => t.category === 'read' || t.category === 'network');
  return out;
}

/**
 * Tools an MCP server added while a run goes on (its list changed), that this run may offer:
 * the same filters as `offeredTools` and the command file's narrowing. They join `offered`
 * (so calls of them run) and come back as specs for the loop to append.
 */
export async function addedMcpTools(ctx: Context, mode: RunMode, offered: Map<string, AnyTool>, narrowedTo: readonly string[]): Promise<Record<string, LoopToolSpec> | undefined> {
  // A list that changed during the last tool call is read again before the turn.
  await ctx.mcp.listsSettled();
  let fresh = ctx.mcp.readyTools().filter((t) => !offered.has(t.name));
  if (fresh.length === 0) return undefined;
  if (mode === 'plan') fresh = fresh.filter(allowedInPlanMode);
  if (!ctx.workspaceTrusted) fresh = fresh.filter((t) => t.category === 'read' || t.category === 'network');
  const allowed = new Set(narrowTools(fresh.map((t) => t.name), narrowedTo));
  fresh = fresh.filter((t) => allowed.has(t.name));
  for (const t of fresh) offered.set(t.name, t);
  return fresh.length ? toolSpecs(fresh) : undefined;
}

/** Refused before anything is logged, so the person can resend without the image. */
export function checkImages(model: ResolvedModel, input: UserInput): void {
  if (model.supportsImages || !hasImages(input)) return;
  throw new KeelError(
    'usage',
    l10n.t(
      'The model {0} does not take images. Remove the image, or choose a model that reads images (if this one does, set "images": true for it under providers.{1}.models in Keel\'s config).',
      model.id,
      model.provider,
    ),
  );
}

export interface RequestPrompt {
  /** The mode's prompt after the plugins' hook: the same for every message of a conversation. */
  system: string;
  /** The workspace context the new user message carries (what changed since it was last shown). */
  context: ContextUpdate;
}

/**
 * The system prompt and the workspace context for a new user message. `history`: the messages
 * the request will carry, whose meta says what context they showed.
 */
export async function requestPrompt(
  ctx: Context,
  context: ConversationContext,
  history: readonly { meta?: MessageMeta }[],
  mode: RunMode,
  currentPath: string,
  emit: (e: ProjectEvent) => void,
): Promise<RequestPrompt> {
  const gathered = await context.gather(mode, currentPath);
  let update: ContextUpdate;
  if ('gathered' in gathered) {
    const live = await changedResourceSections(ctx.mcp, history);
    const all = live.length > 0 ? { ...gathered.gathered, sections: [...gathered.gathered.sections, ...live] } : gathered.gathered;
    const { sections, rules } = all;
    emit({ type: 'context', sections: sections.map(({ id, title, tokens, budget, cut }) => ({ id, title, tokens, budget, cut })), rules });
    update = contextUpdate(all, shownContext(history));
  } else {
    update = { text: gathered.note, shown: {} };
  }
  const system = await ctx.plugins.apply<string>({
    hook: 'systemPrompt',
    memo: buildSystemPrompt({ mode, displayLanguage: ctx.host.displayLanguage, mcpInstructions: ctx.mcp.instructions() }),
    args: [{ mode }],
    type: 'SeriesLast',
  });
  return { system, context: update };
}

export interface UserTurnParts {
  ctx: Context;
  sessionId: string;
  workspace: Workspace;
  reads: FileReadTracker;
  journal: ChangeJournal | undefined;
  tools: ToolCalls;
  signal: AbortSignal;
  emit(e: ProjectEvent): void;
}

/** The person's message as the model gets it (mentions expanded, a note of undone changes) and its log metadata. */
export async function userTurn(
  parts: UserTurnParts,
  input: UserInput,
  model: ResolvedModel,
  opts: Pick<RunOptions, 'mentions'> & { context?: ContextUpdate; ruleText?: string; invokedText?: string },
): Promise<{ message: ModelMessage; meta: MessageMeta }> {
  const { ctx, emit } = parts;
  let content: UserContent =
    typeof input !== 'string'
      ? input
      : await ctx.plugins.apply<string>({ hook: 'userPrompt', memo: input, args: [{ sessionId: parts.sessionId }], type: 'SeriesLast' });
  // What event rules fired on the prompt comes first: Keel's notes, then the person's words.
  if (opts.ruleText) content = typeof content === 'string' ? [{ type: 'text', text: opts.ruleText }, { type: 'text', text: content }] : [{ type: 'text', text: opts.ruleText }, ...content];
  const mentions = opts.mentions ?? [];
  let mentionNotes: MentionNote[] = [];
  if (mentions.length > 0) {
    const expanded = await expandMentions(mentions, {
      workspace: parts.workspace,
      host: ctx.host,
      reads: parts.reads,
      signal: parts.signal,
      // @url mentions go through the fetch tool like the model's own calls: its approval, its limits.
      fetchUrl: async (url) => {
        const result = await parts.tools.call({ toolCallId: `mention-${randomUUID()}`, toolName: 'fetch', input: { url } });
        const text = toDisplayText(result);
        return result.isError ? { ok: false, reason: text } : { ok: true, body: text, hint: `fetch ${url} for the rest` };
      },
      readResource: async (server, uri) => {
        try {
          const body = await ctx.mcp.resourceText(server, uri);
          // Subscribed where the server offers it: a change reaches the model with a later message.
          ctx.mcp.watchResource(server, uri).catch((err: unknown) => ctx.host.log('warn', `Watching ${uri} of MCP server "${server}" failed: ${errorMessage(err)}`));
          return { ok: true, body, hint: `read it with mcp_read_resource (server "${server}") for the rest` };
        } catch (err) {
          return { ok: false, reason: errorMessage(err) };
        }
      },
    });
    emit({ type: 'mentions', outcomes: expanded.outcomes });
    mentionNotes = mentionNotesOf(expanded.outcomes);
    content = attachMentions(content, expanded.text);
  }
  if (opts.invokedText) content = attachMentions(content, opts.invokedText);
  const undone = parts.journal?.takeRevertNote() ?? '';
  if (undone) content = attachMentions(content, undone);
  const meta: MessageMeta = mentions.length
    ? { model: model.id, mentions: [...mentions], ...(mentionNotes.length ? { mentionNotes } : {}) }
    : { model: model.id };
  if (opts.context) {
    // After the person's words and their mentions, as one more part Keel attached.
    if (opts.context.text !== '') content = attachMentions(content, opts.context.text);
    if (Object.keys(opts.context.shown).length > 0) meta.context = opts.context.shown;
  }
  return { message: { role: 'user', content }, meta };
}

/** What the model is told about each tool. */
export function toolSpecs(tools: readonly AnyTool[]): Record<string, LoopToolSpec> {
  const specs: Record<string, LoopToolSpec> = {};
  for (const t of tools) {
    specs[t.name] = { description: t.description, parameters: toolParameters(t), readOnly: t.category === 'read', present: (input) => presentCall(t, t.name, input) };
  }
  return specs;
}

const schemaCache = new WeakMap<AnyTool, Record<string, unknown>>();

/** The JSON Schema the model sees, derived once per tool from its zod schema. */
function toolParameters(tool: AnyTool): Record<string, unknown> {
  if (tool.jsonSchema) return tool.jsonSchema;
  let schema = schemaCache.get(tool);
  if (!schema) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    schema = withoutSafeIntegerBounds(rest);
    schemaCache.set(tool, schema);
  }
  return schema;
}

/**
 * zod's `.int()` writes JavaScript's safe-integer bounds into the schema; they tell the model
 * nothing and cost tokens in every request, so they are left out (zod still checks them).
 */
function withoutSafeIntegerBounds(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) continue;
    out[key] = Array.isArray(value)
      ? value.map((v: unknown) => (isSchemaObject(v) ? withoutSafeIntegerBounds(v) : v))
      : isSchemaObject(value) ? withoutSafeIntegerBounds(value) : value;
  }
  return out;
}

function isSchemaObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasImages(input: UserInput): boolean {
  return typeof input !== 'string' && input.some((p) => p.type === 'image' || (p.type === 'file' && p.mediaType.startsWith('image/')));
}
