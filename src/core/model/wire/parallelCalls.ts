/**
 * Some OpenAI models wrap parallel calls in one call to a tool that was never offered,
 * `multi_tool_use.parallel`, whose arguments list the real calls:
 * `{"tool_uses":[{"recipient_name":"functions.read","parameters":{…}}, …]}`.
 * Keel runs the calls inside, never the wrapper.
 */
export const PARALLEL_WRAPPER = 'multi_tool_use.parallel';

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
