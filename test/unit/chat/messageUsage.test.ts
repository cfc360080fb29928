// Usage a person can see per message: each answer and each compaction carries what its model
// calls used, the same live and after a resume (one fold), and the messages add up to the
// conversation's total; the meter's parts add up to the tokens it counts.
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../../src/protocol/sessionState';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import { useChatRig } from './chatSuite';

const rigs = useChatRig();

const usageById = (messages: readonly UiMessage[]) => Object.fromEntries(messages.filter((m) => m.usage).map((m) => [m.id, m.usage]));

function sum(messages: readonly UiMessage[]): Record<string, number> {
  const out: Record<string, number> = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  for (const m of messages) for (const key of Object.keys(out)) out[key]! += (m.usage as Record<string, number> | undefined)?.[key] ?? 0;
  return out;
}

describe('usage per message', () => {
  it('each answer and the compaction show their usage, live as resumed, adding up to the total; the meter parts add up', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({
      turns: [
        reply.tool('ls', { path: '.' }, { match: { lastUserIncludes: 'first-q' }, usage: { prompt_tokens: 1200, completion_tokens: 40 } }),
        reply.text('Nothing here.', { usage: { prompt_tokens: 1300, completion_tokens: 12 } }),
        reply.text('The person asked what is here.', { match: { systemIncludes: 'You summarize a conversation' }, usage: { prompt_tokens: 700, completion_tokens: 30 } }),
        reply.text('Still nothing.', { match: { lastUserIncludes: 'second-q' }, usage: { prompt_tokens: 900, completion_tokens: 8 } }),
      ],
    });
    const page = rig.openPage(() => ({ approved: true }));
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await page.bus.request('session.send', { text: 'first-q' });
    await until(() => !rig.controller.isRunning && rig.controller.messages().at(-1)?.status === 'done', 'the first answer');
    expect((await page.bus.request('session.compact', {})).status).toBe('compacted');
    await page.bus.request('session.send', { text: 'second-q' });
    await until(() => !rig.controller.isRunning && rig.controller.messages().at(-1)?.parts.some((p) => p.type === 'text' && p.text === 'Still nothing.') === true, 'the second answer');
    await settle();

    const live = page.store.messages;
    expect(live).toEqual(rig.controller.messages());
    const answers = live.filter((m) => m.role === 'assistant');
    // The tool turn and the answer after it are one message each, with their own call's usage.
    expect(answers.map((m) => m.usage)).toEqual([
      { inputTokens: 1200, outputTokens: 40 },
      { inputTokens: 1300, outputTokens: 12 },
      { inputTokens: 900, outputTokens: 8 },
    ]);
    expect(live.find((m) => m.parts[0]?.type === 'compaction')?.usage).toEqual({ inputTokens: 700, outputTokens: 30 });

    const total = page.store.named('usage').at(-1) as Usage;
    expect(sum(live)).toEqual({ inputTokens: total.inputTokens, outputTokens: total.outputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(total).toMatchObject({ inputTokens: 4100, outputTokens: 90 });
    expect(total.costUsd).toBeUndefined();

    // The meter: what filled the last request, adding up to what it counts.
    expect(total.contextTokens).toBe(908);
    const parts = total.contextParts!;
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(908);
    expect(parts.system).toBeGreaterThan(0);
    expect(parts.history).toBeGreaterThanOrEqual(8);

    // Resumed from the log: the same usage on the same messages.
    const id = (page.store.named('session').at(-1) as { id: string }).id;
    await page.bus.request('session.new', {});
    await page.bus.request('sessions.resume', { id });
    await settle();
    expect(usageById(page.store.messages)).toEqual(usageById(live));
    expect(page.store.snapshot!.usage).toMatchObject({ inputTokens: 4100, outputTokens: 90 });
  });
});
