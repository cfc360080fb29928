import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import { addUsage, usageOfCall } from '../model/tokenUsage';
import type { TokenUsage } from '../model/tokenUsage';
import { errorMessage } from '../errors';
import { isContextOverflow, overflowSize } from '../history/contextOverflow';
import { maxShrinkAttempts, shrinkHistory } from '../history/shrinkHistory';
import type { ToolResult } from '../tools/tool';
import type { FunctionTool, LanguageModelSpec } from '../model/wire/modelSpec';
import { callOptions, specModel, streamModel } from '../model/wire/modelStream';
import { EmptyAnswerError, defaultRetryPolicy, isEmptyAnswer, isRetryable, retryDelayMs, sleep, statusOf } from './retry';
import type { LoopError, LoopOptions, LoopResult, LoopStatus, LoopToolCall, LoopToolSpec, RetryPolicy } from './loopTypes';
import { toDisplayText, toModelOutput } from './toolOutput';

interface PendingCall extends LoopToolCall {
  /** Set when the model's call could not be parsed: it gets this error instead of running. */
  invalid?: string;
  /** What the provider attached to the call (Gemini's thought signature), sent back with it. */
  providerOptions?: SharedProviderOptions;
}

interface TurnOutput {
  text: string;
  reasoning: string;
  /**
   * The reasoning blocks as the provider sent them, with what it attached to each (Anthropic's
   * thinking signature, its redacted thinking): sent back as they came so thinking carries
   * across turns. Empty when no provider attached anything.
   */
  reasoningBlocks: ReasoningBlock[];
  calls: PendingCall[];
  usage: TokenUsage;
  aborted: boolean;
}

interface ReasoningBlock {
  id: string;
  text: string;
  providerOptions?: SharedProviderOptions;
}

type SharedProviderOptions = NonNullable<Extract<Exclude<AssistantModelMessage['content'], string>[number], { type: 'reasoning' }>['providerOptions']>;

/** Keeps what a provider attached to a reasoning block (merged per provider as it arrives). */
function noteReasoning(out: TurnOutput, id: string, text: string, meta: SharedProviderOptions | undefined): void {
  let block = out.reasoningBlocks.find((b) => b.id === id);
  if (!block) {
    block = { id, text: '' };
    out.reasoningBlocks.push(block);
  }
  block.text += text;
  if (!meta) return;
  const merged: SharedProviderOptions = { ...block.providerOptions };
  for (const [provider, fields] of Object.entries(meta)) merged[provider] = { ...merged[provider], ...fields };
  block.providerOptions = merged;
}

const cancelledResult: ToolResult = { output: 'Cancelled by the user before this tool finished.', isError: true };

/** What the model is offered: names, descriptions and input schemas; Loop runs the calls after approval. */
function modelTools(tools: Record<string, LoopToolSpec>): FunctionTool[] {
  return Object.entries(tools).map(([name, spec]) => ({
    type: 'function',
    name,
    description: spec.description,
    inputSchema: spec.parameters as FunctionTool['inputSchema'],
  }));
}

interface TurnRequest {
  model: LanguageModelSpec;
  tools: FunctionTool[];
}

/**
 * The agent loop: stream a model turn, run its tool calls, feed results back, repeat until
 * the model stops, the turn cap is hit, the run is cancelled or an error cannot be retried.
 */
export async function runLoop(opts: LoopOptions): Promise<LoopResult> {
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...opts.retry };
  const request: TurnRequest = { model: specModel(opts.model), tools: modelTools(opts.tools) };
  // What is sent: the given messages plus this run's, less what context recovery left out.
  let history: ModelMessage[] = [...opts.messages];
  const produced: ModelMessage[] = [];
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let contextTokens = 0;
  let turns = 0;
  let lastText = '';

  const keep = (message: ModelMessage, partial?: boolean) => {
    history.push(message);
    produced.push(message);
    opts.onEvent(partial ? { type: 'message', message, partial } : { type: 'message', message });
  };
  const finish = (status: LoopStatus, err?: unknown, error?: LoopError): LoopResult => {
    const result: LoopResult = { status, turns, usage, contextTokens, text: lastText, messages: produced };
    if (error) result.error = error;
    else if (err !== undefined) result.error = { message: errorMessage(err), statusCode: statusOf(err) };
    return result;
  };

  for (;;) {
    if (opts.signal.aborted) return finish('cancelled');
    if (turns >= opts.maxTurns) return finish('max_turns');
    turns++;
    opts.onEvent({ type: 'turn_start', turn: turns });
    if (opts.beforeTurn) {
      const replaced = await opts.beforeTurn(history, { turn: turns, contextTokens });
      if (replaced) history = replaced;
    }
    const added = opts.prepareTurn?.(turns);
    if (added) keep(added);
    const newTools = await opts.newTools?.();
    for (const [name, spec] of Object.entries(newTools ?? {})) {
      if (opts.tools[name]) continue;
      opts.tools[name] = spec;
      request.tools = [...request.tools, ...modelTools({ [name]: spec })];
    }
    let turn: TurnOutput | undefined;
    let triedCompaction = false;
    // A context-too-long answer: leave out older messages and try this turn again, at most maxShrinkAttempts times.
    for (let attempt = 1; turn === undefined; attempt++) {
      try {
        turn = await streamTurnWithRetry(opts, policy, request, history);
      } catch (err) {
        if (!isContextOverflow(err)) return finish('error', err);
        if (opts.onOverflow && !triedCompaction) {
          // Compaction first: it keeps the gist of what trimming would drop.
          triedCompaction = true;
          const compacted = await opts.onOverflow(history, err);
          if (opts.signal.aborted) return finish('cancelled');
          if (compacted) {
            history = compacted;
            attempt--;
            continue;
          }
        }
        const shrunk = attempt <= maxShrinkAttempts ? shrinkHistory(history, attempt, overflowSize(err)) : undefined;
        if (!shrunk) return finish('error', err, contextTooLong(err, attempt - 1));
        history = shrunk.messages;
        opts.onEvent({
          type: 'context_trimmed',
          attempt,
          maxAttempts: maxShrinkAttempts,
          droppedMessages: shrunk.dropped,
          shortenedResults: shrunk.elided,
          error: errorMessage(err),
        });
      }
    }
    addUsage(usage, turn.usage);
    if (turn.usage.inputTokens > 0) contextTokens = turn.usage.inputTokens;
    if (turn.usage.inputTokens || turn.usage.outputTokens) {
      opts.onEvent({ type: 'usage', turn: turns, ...turn.usage });
    }
    lastText = turn.text;
    const assistant = assistantMessage(turn);
    if (assistant) keep(assistant, turn.aborted || undefined);
    if (turn.calls.length === 0) return finish(turn.aborted ? 'cancelled' : 'completed');

    const results = await runCalls(opts, turn.calls, turn.aborted);
    keep({ role: 'tool', content: results });
    if (turn.aborted || opts.signal.aborted) return finish('cancelled');
  }
}

async function streamTurnWithRetry(
  opts: LoopOptions,
  policy: RetryPolicy,
  request: TurnRequest,
  messages: ModelMessage[],
): Promise<TurnOutput> {
  for (let attempt = 1; ; attempt++) {
    const out: TurnOutput = { text: '', reasoning: '', reasoningBlocks: [], calls: [], usage: { inputTokens: 0, outputTokens: 0 }, aborted: false };
    try {
      await streamTurn(opts, request, messages, out);
      if (!out.aborted && !opts.signal.aborted && isEmptyAnswer(out)) throw new EmptyAnswerError();
      return out;
    } catch (err) {
      if (opts.signal.aborted) {
        out.aborted = true;
        return out;
      }
      if (attempt >= policy.maxAttempts || !isRetryable(err) || isContextOverflow(err)) throw err;
      const delayMs = retryDelayMs(err, attempt, policy);
      opts.onEvent({ type: 'retry', attempt, maxAttempts: policy.maxAttempts, error: errorMessage(err), delayMs });
      try {
        await sleep(delayMs, opts.signal);
      } catch {
        // Aborted while waiting: nothing of this turn was kept.
        return { ...out, text: '', reasoning: '', reasoningBlocks: [], calls: [], aborted: true };
      }
    }
  }
}

/** What the person is told when the conversation cannot be made to fit. */
function contextTooLong(err: unknown, attempts: number): LoopError {
  const said = errorMessage(err);
  const message =
    attempts === 0
      ? 'The latest message is too long for the model\'s context window on its own, so leaving out older messages cannot help. ' +
        'Send a shorter message or attach less, or choose a model with a larger context window.'
      : `The conversation is too long for the model's context window, even after leaving out older messages ${attempts} time${attempts === 1 ? '' : 's'}. ` +
        'Nothing was lost: the session keeps every message. Compact the conversation, start a new one, or choose a model with a larger context window.';
  return { message: `${message} (The model's answer: ${said})`, statusCode: statusOf(err), code: 'context_too_long' };
}

/**
 * One model call, driven through the model's own stream (no `streamText` pipeline per token):
 * deltas go out as events as they arrive, tool calls are parsed once whole.
 */
async function streamTurn(opts: LoopOptions, request: TurnRequest, messages: ModelMessage[], out: TurnOutput): Promise<void> {
  const options = await callOptions(request.model, { system: opts.system, messages, tools: request.tools, signal: opts.signal, cacheKey: opts.cacheKey, providerOptions: opts.providerOptions, maxOutputTokens: opts.maxOutputTokens, temperature: opts.temperature });
  await streamModel(request.model, options, (part) => {
    switch (part.type) {
      case 'text-delta':
        // Some providers open a message with an empty delta; it is no text to show.
        if (part.delta === '') break;
        out.text += part.delta;
        opts.onEvent({ type: 'text_delta', text: part.delta });
        break;
      case 'reasoning-start':
        noteReasoning(out, part.id, '', part.providerMetadata);
        break;
      case 'reasoning-delta':
        noteReasoning(out, part.id, part.delta, part.providerMetadata);
        if (part.delta === '') break;
        out.reasoning += part.delta;
        opts.onEvent({ type: 'reasoning_delta', text: part.delta });
        break;
      case 'reasoning-end':
        if (part.providerMetadata) noteReasoning(out, part.id, '', part.providerMetadata);
        break;
      case 'tool-input-start':
        opts.onToolInputStart?.(part.toolName);
        break;
      case 'tool-call':
        out.calls.push({ ...parseCall(part.toolCallId, part.toolName, part.input), ...(part.providerMetadata ? { providerOptions: part.providerMetadata } : {}) });
        break;
      case 'finish':
        addUsage(out.usage, usageOfCall(part.usage));
        break;
      default:
        break;
    }
  });
}

/** A call's input as the tool gets it; input that is not JSON makes the call invalid (the model is told). */
function parseCall(toolCallId: string, toolName: string, input: string): PendingCall {
  if (input.trim() === '') return { toolCallId, toolName, input: {} };
  try {
    return { toolCallId, toolName, input: JSON.parse(input) as unknown };
  } catch (err) {
    return { toolCallId, toolName, input, invalid: `the input is not valid JSON (${errorMessage(err)}): ${input}` };
  }
}

function assistantMessage(turn: TurnOutput): AssistantModelMessage | undefined {
  const content: Exclude<AssistantModelMessage['content'], string> = [];
  if (turn.reasoningBlocks.some((b) => b.providerOptions)) {
    for (const b of turn.reasoningBlocks) content.push({ type: 'reasoning', text: b.text, ...(b.providerOptions ? { providerOptions: b.providerOptions } : {}) });
  } else if (turn.reasoning) content.push({ type: 'reasoning', text: turn.reasoning });
  if (turn.text) content.push({ type: 'text', text: turn.text });
  for (const c of turn.calls) {
    content.push({ type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input: c.input ?? {}, ...(c.providerOptions ? { providerOptions: c.providerOptions } : {}) });
  }
  return content.length ? { role: 'assistant', content } : undefined;
}

/**
 * Runs one turn's calls: consecutive read-only calls together, everything else in order.
 * Every call gets a result, including those skipped by a cancel.
 */
async function runCalls(opts: LoopOptions, calls: PendingCall[], cancelled: boolean): Promise<ToolModelMessage['content']> {
  const results = new Map<string, ToolResult>();
  const runOne = async (call: PendingCall) => {
    let result: ToolResult;
    if (cancelled || opts.signal.aborted) result = cancelledResult;
    else if (call.invalid && opts.tools[call.toolName]) {
      result = { output: `Invalid call of tool "${call.toolName}": ${call.invalid}`, isError: true };
    }
    else {
      // Calls of tools that were not offered still go to executeTool: the caller knows why
      // (plan mode, a plugin that went away) and can say so to the model.
      // A tool that was not offered has no card here: the host draws it by name, as it does for a resumed call.
      const display = opts.tools[call.toolName]?.present?.(call.input);
      opts.onEvent({ type: 'tool_use', toolCallId: call.toolCallId, name: call.toolName, input: call.input, ...(display ? { display } : {}) });
      try {
        result = await opts.executeTool(call, opts.signal);
      } catch (err) {
        result = { output: `Tool "${call.toolName}" failed: ${errorMessage(err)}`, isError: true };
      }
    }
    results.set(call.toolCallId, result);
    opts.onEvent({
      type: 'tool_result',
      toolCallId: call.toolCallId,
      name: call.toolName,
      isError: result.isError === true,
      output: toDisplayText(result),
      ...(result.sandboxed === undefined ? {} : { sandboxed: result.sandboxed }),
      ...(result.mcp?.appUri ? { app: result.mcp } : {}),
    });
  };

  let i = 0;
  while (i < calls.length) {
    const parallel = (c: PendingCall) => opts.tools[c.toolName]?.readOnly === true && !c.invalid;
    if (parallel(calls[i])) {
      const group: PendingCall[] = [];
      while (i < calls.length && parallel(calls[i])) group.push(calls[i++]);
      await Promise.all(group.map(runOne));
    } else {
      await runOne(calls[i++]);
    }
  }
  return calls.map((c) => ({
    type: 'tool-result' as const,
    toolCallId: c.toolCallId,
    toolName: c.toolName,
    output: toModelOutput(results.get(c.toolCallId) ?? cancelledResult),
  }));
}
