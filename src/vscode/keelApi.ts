import type * as vscode from 'vscode';
import type { ProviderFactory, SourceModel } from '../core/model';
import type { ConversationInfo, HookName, HookType, KeelPlugin, PluginHooks, RunMode, ToolUse } from '../core/plugins';
import type { AnyTool, ToolCategory, ToolContext, ToolDefinition, ToolPreview, ToolResult } from '../core/tools';

/** The version of the API below; it changes only when a change would break existing plugins. */
export const KEEL_API_VERSION = 1;

/**
 * What `activate()` returns. Another extension gets it with
 * `await vscode.extensions.getExtension('keel-dev.keel')?.activate()` (list `keel-dev.keel` in
 * its `extensionDependencies`), checks `apiVersion`, and registers plugins.
 *
 * A plugin is `{ name, ...hooks }`. Each hook has a fixed way of combining the plugins'
 * answers (see `hookTypes` in core/plugins/pluginTypes.ts):
 * - `systemPrompt(prompt, {mode})`, `userPrompt(text, {sessionId})`, `toolUse(use)`,
 *   `toolResult(result, use)` — SeriesLast: each gets the previous value and returns the
 *   next (undefined keeps it).
 * - `tool({mode})` — SeriesMerge: the tools of all plugins together. A tool declares its
 *   `category` (`read` / `write` / `command` / `network`), has a zod v4 `inputSchema`, and
 *   goes through the same approval rules as built-in tools; the paths its `preview` names
 *   are resolved against the workspace (outside is refused, protected paths always ask).
 * - `context`, `config`, `provider` (model sources), `modelAlias` — SeriesMerge.
 * - `conversation(info)` (after each run), `initialized()` — Series; `destroy()` — Parallel.
 * A hook that throws or does not answer within 10 s is logged to the "Keel" output channel
 * and skipped for that call; the conversation goes on.
 */
export interface KeelApi {
  readonly apiVersion: typeof KEEL_API_VERSION;
  /**
   * Adds a plugin. Registered before Keel's core exists, it is there from the start;
   * registered later, it joins the running core (its config, alias and provider hooks apply
   * from the next rebuild). Dispose the returned Disposable to remove it: the next run no
   * longer sees it. Throws a TypeError for a plugin without a name.
   */
  registerPlugin(plugin: KeelPlugin): vscode.Disposable;
}

export type {
  AnyTool,
  ConversationInfo,
  HookName,
  HookType,
  KeelPlugin,
  PluginHooks,
  ProviderFactory,
  RunMode,
  SourceModel,
  ToolCategory,
  ToolContext,
  ToolDefinition,
  ToolPreview,
  ToolResult,
  ToolUse,
};
