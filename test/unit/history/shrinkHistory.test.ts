import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { shrinkHistory } from '../../../src/core/history/shrinkHistory';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const say = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const call = (id: string, name = 'read'): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: name, input: { file_path: `${id}.ts` } }],
});
const result = (id: string, value: string, name = 'read'): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: name, output: { type: 'text', value } }],
});

/** Every tool result answers a call of the assistant message right before its tool messages. */
function assertNoOrphans(messages: ModelMessage[]): void {
  messages.forEach((m, i) => {
    if (m.role !== 'tool') return;
    let j = i - 1;
    while (j >= 0 && messages[j].role === 'tool') j--;
    const owner = messages[j];
    expect(owner?.role).toBe('assistant');
    const ids = new Set((owner.content as Array<{ type: string; toolCallId?: string }>).filter((p) => p.type === 'tool-call').map((p) => p.toolCallId));
    for (const part of m.content) if (part.type === 'tool-result') expect(ids.has(part.toolCallId)).toBe(true);
  });
}

function longConversation(exchanges: number): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < exchanges; i++) {
    out.push(user(`question ${i}`), call(`c${i}`), result(`c${i}`, `content ${i} `.repeat(200)), say(`answer ${i}`));
  }
  return out;
}

describe('shrinkHistory', () => {
  it('drops the oldest turns whole, keeps the latest user message and says what was left out', () => {
    const messages = [...longConversation(10), user('the latest question')];
    const out = shrinkHistory(messages, 1)!;
    expect(out.dropped).toBeGreaterThan(0);
    // Everything not dropped is still there, unchanged (one may carry the note), plus at most the note.
    expect(out.messages.filter((m) => messages.includes(m)).length).toBeGreaterThanOrEqual(messages.length - out.dropped - 1);
    expect(out.messages.length).toBeLessThanOrEqual(messages.length - out.dropped + 1);
    expect(out.messages.at(-1)).toEqual(user('the latest question'));
    expect(JSON.stringify(out.messages[0])).toContain(`left out the ${out.dropped} oldest messages`);
    expect(JSON.stringify(out.messages)).not.toContain('question 0');
    expect(JSON.stringify(out.messages)).toContain('answer 9');
    assertNoOrphans(out.messages);
    expect(messages).toHaveLength(41);
  });

  it('cuts about as much as the error says is too much', () => {
    const messages = [...longConversation(20), user('now')];
    const small = shrinkHistory(messages, 1, { limit: 9_000, actual: 10_000 })!;
    const big = shrinkHistory(messages, 1, { limit: 2_000, actual: 10_000 })!;
    expect(big.dropped).toBeGreaterThan(small.dropped);
  });

  it('never separates the latest user message from the turns of the current run', () => {
    const messages: ModelMessage[] = [
      ...longConversation(3),
      user('do the task'),
      call('r1'),
      result('r1', 'x'.repeat(5_000)),
      call('r2'),
      result('r2', 'y'.repeat(5_000)),
      call('r3'),
      result('r3', 'newest'),
    ];
    for (const attempt of [1, 2, 3]) {
      const out = shrinkHistory(messages, attempt)!;
      assertNoOrphans(out.messages);
      expect(JSON.stringify(out.messages)).toContain('do the task');
      expect(out.messages.at(-1)).toEqual(result('r3', 'newest'));
    }
    // The last attempt keeps only what must stay: the latest user message (as written) and the newest turn, after the note.
    const last = shrinkHistory(messages, 3)!;
    expect(last.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
    expect(last.messages[0].content).toMatch(/^\[Keel left out the 16 oldest messages/);
    expect(last.messages[1]).toBe(messages[12]);
  });

  it('shortens long tool results when leaving out messages is not enough', () => {
    const messages: ModelMessage[] = [user('read it'), call('a'), result('a', 'z'.repeat(50_000))];
    const out = shrinkHistory(messages, 1)!;
    expect(out.dropped).toBe(0);
    expect(out.elided).toBe(1);
    const text = JSON.stringify(out.messages[2]);
    expect(text.length).toBeLessThan(3_000);
    expect(text).toContain('characters of this result left out');
    assertNoOrphans(out.messages);
  });

  it('gives up (undefined) when nothing can be cut', () => {
    expect(shrinkHistory([user('only this')], 1)).toBeUndefined();
    expect(shrinkHistory([user('a'), say('b')], 3)).toBeUndefined();
  });
});

describe('shrinkHistory over several attempts', () => {
  it('counts everything left out so far in one note at the start', () => {
    const messages = [...longConversation(12), { role: 'user', content: 'latest' } as ModelMessage];
    const first = shrinkHistory(messages, 1)!;
    const second = shrinkHistory(first.messages, 2)!;
    const notes = second.messages.filter((m) => JSON.stringify(m.content).includes('Keel left out'));
    expect(notes).toHaveLength(1);
    expect(JSON.stringify(notes[0].content)).toContain(`left out the ${first.dropped + second.dropped} oldest messages`);
    expect(second.messages.at(-1)).toEqual({ role: 'user', content: 'latest' });
    assertNoOrphans(second.messages);
  });
});
