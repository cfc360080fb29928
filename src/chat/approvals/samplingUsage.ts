import { errorMessage } from '../../core/errors';
import type { LogFn } from '../../protocol/log';
import type { MessageUsage } from '../../protocol/messageUsage';
import type { Conversation } from '../conversations/conversation';

/**
 * A sampling request the person approved ran on their model: its tokens (and cost) go into the
 * conversation's log as a usage record of the message whose card asked, so the message's usage
 * line and the conversation's total count them, live and when the conversation is reopened.
 */
export function countSamplingUsage(conversation: Conversation, messageId: string, modelId: string, usage: MessageUsage, log: LogFn): void {
  const session = conversation.slot.current?.session;
  if (!session || session.readOnly) {
    log('warn', `mcp: a sampling request's usage (${usage.inputTokens} in, ${usage.outputTokens} out) has no session to be recorded in`);
    return;
  }
  try {
    session.appendUsage({ ...usage, model: modelId, messageId });
  } catch (err) {
    log('error', `mcp: recording a sampling request's usage failed: ${errorMessage(err)}`);
    return;
  }
  const { state } = conversation;
  // The totals are the session's again; what the meter knows of the context window stays.
  const { inputTokens: _in, outputTokens: _out, cachedInputTokens: _cached, cacheWriteTokens: _written, reasoningTokens: _reasoning, costUsd: _cost, ...context } =
    state.usage ?? { inputTokens: 0, outputTokens: 0 };
  state.setUsage({ ...context, ...session.usageTotals() });
  const used = session.messageUsage(messageId);
  if (used) state.setMessageUsage(messageId, used);
}
