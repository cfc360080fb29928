import type { LanguageModel, ModelMessage } from 'ai';
import type { TokenUsage } from '../model/tokenUsage';
import type { ModelCall } from '../model/wire/modelStream';
import type { McpCallResult, ToolResult } from '../tools/tool';
import type { ToolPresentation } from '../tools/toolPresentation';

/** What the model is offered for one tool: Loop knows nothing else about tools. */
export interface LoopToolSpec {
  description: string;
  /** JSON Schema of the input object. */
  parameters: Record<string, unknown>;
  /** Read-only calls of one turn run in parallel; the rest run in order. */
  readOnly: boolean;
  /** How a call of it looks on its card. */
  present?(input: unknown): ToolPresentation;
}

export interface LoopToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export type LoopEvent =
  | { type: 'turn_start'; turn: number }
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  /** `display` is the card the offered tool drew; absent for a tool that was not offered (the host then draws it by name). */
  | { type: 'tool_use'; toolCallId: string; name: string; input: unknown; display?: ToolPresentation }
  /** `app`: an MCP tool's result and the MCP App that shows it, for hosts that draw apps. */
  | { type: 'tool_result'; toolCallId: string; name: string; isError: boolean; output: string; sandboxed?: boolean; app?: McpCallResult }
  /** A failed attempt that will be retried; text streamed during it is discarded. */
  | { type: 'retry'; attempt: number; maxAttempts: number; error: string; delayMs: number }
  /** One model call's tokens (cache reads and writes, reasoning, where the provider reports them). */
  | ({ type: 'usage'; turn: number } & TokenUsage)
  /**
   * The model said the conversation does not fit its context window: older messages were
   * left out of what is sent (the session keeps them) and the turn is tried again.
   */
  | { type: 'context_trimmed'; attempt: number; maxAttempts: number; droppedMessages: number; shortenedResults: number; error: string }
  /** A finished message to keep: the assistant's turn, or the tool results after it. */
  | { type: 'message'; message: ModelMessage; partial?: boolean };

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface LoopOptions {
  model: LanguageModel;
  system: string;
  /** History including the new user message. Not mutated. */
  messages: ModelMessage[];
  tools: Record<string, LoopToolSpec>;
  /**
   * Stable for the whole conversation: providers that take a prompt-cache key (OpenAI's
   * `prompt_cache_key`) route its requests to the same cache with it.
   */
  cacheKey?: string;
  /** Provider options sent with every model call of the run (the reasoning the person chose). */
  providerOptions?: ModelCall['providerOptions'];
  /** The person's own output limit and temperature for the model, sent with every call. */
  maxOutputTokens?: number;
  temperature?: number;
  executeTool(call: LoopToolCall, signal: AbortSignal): Promise<ToolResult>;
  maxTurns: number;
  signal: AbortSignal;
  retry?: Partial<RetryPolicy>;
  onEvent(event: LoopEvent): void;
  /**
   * A message the caller adds before the next turn (e.g. event rules' reminders): kept in the
   * history and reported as a `message` event like the turn's own, so later requests start with it.
   */
  prepareTurn?(turn: number): ModelMessage | undefined;
  /**
   * Tools that became available since the run started (an MCP server's tools/list_changed):
   * asked before each turn, added to `tools` and appended after the tools already offered, so
   * the request's prefix stays the same.
   */
  newTools?(): Promise<Record<string, LoopToolSpec> | undefined>;
  /**
   * Before each turn's request: may return a shorter history to use from now on (compaction).
   * `contextTokens` is what the previous request measured (0 before the first).
   */
  beforeTurn?(messages: ModelMessage[], info: { turn: number; contextTokens: number }): Promise<ModelMessage[] | undefined>;
  /**
   * The provider said the request does not fit its window: may return a shorter history
   * (compaction), tried once per turn before older messages are left out.
   */
  onOverflow?(messages: ModelMessage[], error: unknown): Promise<ModelMessage[] | undefined>;
  /** The model began writing a call of this tool (its input still streaming). */
  onToolInputStart?(toolName: string): void;
}

export type LoopStatus = 'completed' | 'cancelled' | 'max_turns' | 'error';

export interface LoopResult {
  status: LoopStatus;
  turns: number;
  usage: TokenUsage;
  /** Input tokens of the last turn: how full the context window is now. */
  contextTokens: number;
  /** Text of the last assistant turn. */
  text: string;
  /** Messages produced by this run, in order (also delivered as `message` events). */
  messages: ModelMessage[];
  error?: LoopError;
}

export interface LoopError {
  message: string;
  statusCode?: number;
  /** `context_too_long`: the conversation did not fit the model's window even after trimming. */
  code?: 'context_too_long';
}
