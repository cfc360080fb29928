import type { ConfigLayer } from '../config/configSchema';
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
  tool: 'SeriesMerge',
  userPrompt: 'SeriesLast',
  toolUse: 'SeriesLast',
  toolResult: 'SeriesLast',
  conversation: 'Series',
  provider: 'SeriesMerge',
  modelAlias: 'SeriesMerge',
  destroy: 'Parallel',
};
