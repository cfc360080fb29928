// How a reply turn is cut into Chat Completions deltas.
import { describe, expect, it } from 'vitest';
import { planReply } from '../../fixtures/scriptedServer/replyPlan.ts';
import type { ChatRequestBody } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { fillerWords } from '../../fixtures/scriptedServer/fillerText.ts';

const body: ChatRequestBody = { messages: [{ role: 'user', content: 'a'.repeat(40) }] };

describe('planReply', () => {
  it('opens each tool call with id, type and name, then streams its arguments in uneven fragments', () => {
    const plan = planReply({ toolCalls: [{ name: 'read', arguments: { file_path: 'src/a.ts', limit: 200 } }] }, body, 'call_x');
    const [opening, ...fragments] = plan.deltas.map((planned) => planned.delta.tool_calls?.[0]);
    expect(opening).toEqual({ index: 0, id: 'call_x_0', type: 'function', function: { name: 'read', arguments: '' } });
    const pieces = fragments.map((fragment) => fragment?.function.arguments ?? '');
    expect(pieces.join('')).toBe('{"file_path":"src/a.ts","limit":200}');
    // Cuts fall inside keys and values, not only at JSON token boundaries.
    expect(pieces.slice(0, 3)).toEqual(['{', '"fi', 'le']);
    expect(new Set(pieces.map((piece) => piece.length)).size).toBeGreaterThan(2);
    expect(fragments.every((fragment) => fragment?.id === undefined && fragment?.function.name === undefined)).toBe(true);
  });

  it('gives each tool call of a turn its own index, after the text', () => {
    const plan = planReply(
      { text: 'hi', toolCalls: [{ name: 'a', arguments: {} }, { id: 'mine', name: 'b', arguments: '' }] },
      body,
      'p',
    );
    const indexes = plan.deltas.flatMap((planned) => planned.delta.tool_calls?.map((call) => call.index) ?? []);
    expect(indexes).toEqual([0, 0, 0, 1]);
    expect(plan.deltas[0].delta).toEqual({ content: 'hi' });
    expect(plan.toolCalls.map((call) => [call.id, call.function.arguments])).toEqual([['p_0', '{}'], ['mine', '']]);
    expect(plan.finishReason).toBe('tool_calls');
  });

  it('never splits a surrogate pair', () => {
    const plan = planReply({ text: '😀😀😀😀😀', chunkSize: 2 }, body, 'p');
    expect(plan.deltas.map((planned) => planned.delta.content)).toEqual(['😀😀', '😀😀', '😀']);
  });

  it('puts reasoning before text and keeps both in the assembled message', () => {
    const plan = planReply({ reasoning: 'think', text: 'say' }, body, 'p');
    expect(plan.deltas.map((planned) => planned.delta)).toEqual([
      { reasoning_content: 'thin' }, { reasoning_content: 'k' }, { content: 'say' },
    ]);
    expect([plan.reasoning, plan.content, plan.finishReason]).toEqual(['think', 'say', 'stop']);
  });

  it('estimates usage as chars/4 unless told otherwise', () => {
    expect(planReply({ text: 'b'.repeat(21) }, body, 'p').usage).toEqual({ prompt_tokens: 10, completion_tokens: 6, total_tokens: 16 });
    expect(planReply({ text: 'b', usage: { completion_tokens: 9 } }, body, 'p').usage).toEqual({ prompt_tokens: 10, completion_tokens: 9, total_tokens: 19 });
    expect(planReply({ tokens: 33 }, body, 'p').usage.completion_tokens).toBe(33);
  });

  it('weighs filler chunks by words so pacing counts tokens', () => {
    const plan = planReply({ tokens: 7, chunkSize: 3 }, body, 'p');
    expect(plan.deltas.map((planned) => planned.tokens)).toEqual([3, 3, 1]);
    expect(plan.content).toBe(fillerWords(7).join(''));
  });
});

describe('fillerWords', () => {
  it('is deterministic, capitalises sentences and ends with a full stop', () => {
    const words = fillerWords(30);
    expect(fillerWords(30)).toEqual(words);
    expect(words).toHaveLength(30);
    expect(words[0]).toBe('Lorem');
    expect(words[12]).toMatch(/^ [A-Z]/);
    expect(words.at(-1)?.endsWith('.')).toBe(true);
    expect(new Set(words.map((word) => word.trim().replace('.', '').toLowerCase())).size).toBeGreaterThan(20);
  });
});
