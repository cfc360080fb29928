import type { ConfigLayer } from '../config/configSchema';
import type { PluginContextSection } from '../llmsContext/contextTypes';
import type { AnyTool, ToolResult } from '../tools/tool';
import type { ProviderFactory } from '../model/modelRegistry';

export type HookType = 'Series' | 'SeriesLast' | 'SeriesMerge' | 'Parallel';
export type RunMode = 'act' | 'plan';

export interface ToolUse {
  toolCallId: string;
  name: string;
  input: unknown;
}

export interface ConversationInfo {
  sessionId: string;
  mode: RunMode;
  status: 'completed' | 'cancelled' | 'max_turns' | 'error';
  turns: number;
}

/**
 * Hook functions a plugin may define. The combination type of each hook is fixed
 * (see hookTypes): SeriesLast hooks get the previous value first and return the next.
 */
export interface PluginHooks {
  initialized?(): void | Promise<void>;
  config?(): ConfigLayer | undefined | Promise<ConfigLayer | undefined>;
  systemPrompt?(prompt: string, info: { mode: RunMode }): string | undefined | Promise<string | undefined>;
  /** Extra sections for the workspace context the model gets with each request; each is held to its own token budget. */
  context?(info: { mode: RunMode; sessionId: string }): PluginContextSection[] | undefined | Promise<PluginContextSection[] | undefined>;
  tool?(info: { mode: RunMode }): AnyTool[] | undefined | Promise<AnyTool[] | undefined>;
  userPrompt?(text: string, info: { sessionId: string }): string | undefined | Promise<string | undefined>;
  toolUse?(use: ToolUse): ToolUse | undefined | Promise<ToolUse | undefined>;
  toolResult?(result: ToolResult, use: ToolUse): ToolResult | undefined | Promise<ToolResult | undefined>;
  conversation?(info: ConversationInfo): void | Promise<void>;
  provider?(): ProviderFactory[] | undefined | Promise<ProviderFactory[] | undefined>;
  modelAlias?(): Record<string, string> | undefined | Promise<Record<string, string> | undefined>;
  destroy?(): void | Promise<void>;
}

export type HookName = keyof PluginHooks;

export interface KeelPlugin extends PluginHooks {
  name: string;
}

export const hookTypes: Record<HookName, HookType> = {
  initialized: 'Series',
  config: 'SeriesMerge',
  systemPrompt: 'SeriesLast',
  context: 'SeriesMerge',
  tool: 'SeriesMerge',
  userPrompt: 'SeriesLast',
  toolUse: 'SeriesLast',
  toolResult: 'SeriesLast',
  conversation: 'Series',
  provider: 'SeriesMerge',
  modelAlias: 'SeriesMerge',
  destroy: 'Parallel',
};
