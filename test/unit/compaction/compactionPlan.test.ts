import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { planCompaction } from '../../../src/core/compaction/compactionPlan';
import { messageTokens } from '../../../src/core/compaction/tokenEstimate';

function call(id: string): ModelMessage {
  return { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'read', input: { path: `${id}.ts` } }] };
}
function result(id: string, size = 40): ModelMessage {
  return { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'read', output: { type: 'text', value: 'x'.repeat(size) } }] };
}
const say = (role: 'user' | 'assistant', text: string): ModelMessage => ({ role, content: text });
const withIds = (messages: ModelMessage[]) => messages.map((message, i) => ({ id: `m${i}`, message }));

describe('planCompaction', () => {
  it('summarizes everything when nothing is to be kept', () => {
    const messages = withIds([say('user', 'q1'), say('assistant', 'a1'), say('user', 'q2'), say('assistant', 'a2')]);
    const plan = planCompaction({ messages, keepTokens: 0 });
    expect(plan).toMatchObject({ lastIndex: 3, replacesUpTo: 'm3', keptTokens: 0 });
  });

  it('keeps about keepTokens of the newest messages', () => {
    const messages = withIds(Array.from({ length: 20 }, (_, i) => say(i % 2 ? 'assistant' : 'user', `message ${i} ${'w'.repeat(396)}`)));
    const each = messageTokens(messages[0]!.message);
    const plan = planCompaction({ messages, keepTokens: each * 4 })!;
    expect(plan.replacesUpTo).toBe('m15');
    expect(plan.keptTokens).toBeGreaterThanOrEqual(each * 4);
    expect(plan.compactedTokens + plan.keptTokens).toBe(messages.reduce((n, m) => n + messageTokens(m.message), 0));
  });

  it('never separates tool calls from their results: the cut moves back to the assistant turn', () => {
    const messages = withIds([say('user', 'fix it'), call('c1'), result('c1'), call('c2'), result('c2', 4000), say('assistant', 'done')]);
    // Keeping ~the last two messages would start the kept part at the result of c2.
    const keep = messageTokens(messages[5]!.message) + 1;
    const plan = planCompaction({ messages, keepTokens: keep })!;
    expect(plan.replacesUpTo).toBe('m2');
    const kept = messages.slice(plan.lastIndex + 1).map((m) => m.message.role);
    expect(kept).toEqual(['assistant', 'tool', 'assistant']);
  });

  it('keeps a turn whose results arrive in several tool messages together', () => {
    const messages = withIds([say('user', 'go'), say('assistant', 'ok'), call('c1'), result('c1'), result('c1b'), say('assistant', 'x')]);
    const plan = planCompaction({ messages, keepTokens: messageTokens(messages[5]!.message) + messageTokens(messages[4]!.message) })!;
    expect(messages[plan.lastIndex + 1]!.message.role).not.toBe('tool');
    expect(plan.replacesUpTo).toBe('m1');
  });

  it('finds nothing to do when everything would be kept, or there is nothing', () => {
    expect(planCompaction({ messages: [], keepTokens: 0 })).toBeUndefined();
    const messages = withIds([say('user', 'q'), say('assistant', 'a')]);
    expect(planCompaction({ messages, keepTokens: 1_000_000 })).toBeUndefined();
    // Only a call and its result after the first message: the cut cannot fall between them.
    const pair = withIds([call('c1'), result('c1')]);
    expect(planCompaction({ messages: pair, keepTokens: 1 })).toBeUndefined();
  });
});
