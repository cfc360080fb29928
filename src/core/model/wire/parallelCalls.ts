/**
 * Some OpenAI models wrap parallel calls in one call to a tool that was never offered,
 * `multi_tool_use.parallel`, whose arguments list the real calls:
 * `{"tool_uses":[{"recipient_name":"functions.read","parameters":{…}}, …]}`.
 * Keel runs the calls inside, never the wrapper.
 */
export const PARALLEL_WRAPPER = 'multi_tool_use.parallel';

import type { StreamPart } from './modelSpec';

export interface UnwrappedCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

/**
 * The calls a wrapper call stands for, each with an id derived from the wrapper's; undefined
 * when the arguments are not a wrapper's (the call is then passed on as it is, and the tool
 * lookup names it as unknown to the model).
 */
export function unwrapParallel(callId: string, args: string): UnwrappedCall[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return undefined;
  }
  const uses = (parsed as { tool_uses?: unknown } | null)?.tool_uses;
  if (!Array.isArray(uses) || uses.length === 0) return undefined;
  const calls: UnwrappedCall[] = [];
  for (const [i, use] of uses.entries()) {
    const recipient = (use as { recipient_name?: unknown } | null)?.recipient_name;
    if (typeof recipient !== 'string' || recipient === '') return undefined;
    const parameters = (use as { parameters?: unknown }).parameters ?? {};
    calls.push({
      toolCallId: `${callId}_${i}`,
      toolName: recipient.startsWith('functions.') ? recipient.slice('functions.'.length) : recipient,
      input: JSON.stringify(parameters),
    });
  }
  return calls;
}

/**
 * Emits a finished call, or the calls inside a parallel wrapper. The wrapper's start was held
 * back while its arguments streamed; a wrapper that is not one after all starts here.
 */
export function emitFinishedCall(emit: (part: StreamPart) => void, toolCallId: string, toolName: string, input: string): void {
  const inner = toolName === PARALLEL_WRAPPER ? unwrapParallel(toolCallId, input) : undefined;
  for (const call of inner ?? [{ toolCallId, toolName, input }]) {
    if (inner || toolName === PARALLEL_WRAPPER) emit({ type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName });
    emit({ type: 'tool-input-end', id: call.toolCallId });
    emit({ type: 'tool-call', ...call });
  }
}
