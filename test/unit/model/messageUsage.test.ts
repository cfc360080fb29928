// Usage per message and what fills the window: each answer's usage and cost is recorded under its
// message, priced from the catalogue (an unknown price stays unknown), and the messages add up to
// the session's total; the meter's parts of each request add up to what the provider counted.
import type { ModelMessage } from 'ai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contextParts, requestWeights } from '../../../src/core/contextParts';
import { contextHeader } from '../../../src/core/llmsContext/contextBlock';
import { mentionsHeader } from '../../../src/core/mentions/mentionBlock';
import { costOf, modelPrice } from '../../../src/core/model/modelCatalogue';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { projectBench, recorder } from '../llmsContext/projectHarness';
import type { ProjectBench } from '../llmsContext/projectHarness';

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

const sumOf = (parts: object) => (Object.values(parts) as number[]).reduce((a, b) => a + b, 0);

describe('what fills the window', () => {
  const messages: ModelMessage[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'fix the bug' },
        { type: 'text', text: `${mentionsHeader}\n\n<file path="a.ts">${'x'.repeat(400)}</file>` },
        { type: 'text', text: `${contextHeader}\n<git>\n${'g'.repeat(200)}\n</git>\n<rules_in_effect>\n${'r'.repeat(300)}\n</rules_in_effect>` },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'y'.repeat(800) } }] },
  ];

  it('sorts a request into system and tools, rules, workspace context, mentions, history and tool results', () => {
    const w = requestWeights({ system: 's'.repeat(1000), tools: { read: { description: 'reads' } }, messages });
    expect(w.system).toBeGreaterThan(1000);
    expect(w.rules).toBe('<rules_in_effect>\n'.length + 300 + '\n</rules_in_effect>'.length);
    expect(w.workspace).toBeGreaterThan(200);
    expect(w.mentions).toBeGreaterThan(400);
    expect(w.toolResults).toBeGreaterThan(800);
    expect(w.history).toBeGreaterThan('fix the bug'.length);
  });

  it('shares the counted input by weight and adds the output to the history, to the token', () => {
    const w = requestWeights({ system: 's'.repeat(1000), tools: {}, messages });
    for (const [input, output] of [[0, 0], [1, 0], [7, 3], [1234, 56], [99_999, 1], [3_000, 0]] as const) {
      const parts = contextParts(w, input, output);
      expect(sumOf(parts)).toBe(input + output);
      expect(parts.history).toBeGreaterThanOrEqual(output);
    }
    // Proportional: the system prompt is the largest part here.
    const parts = contextParts(w, 10_000, 0);
    expect(Math.max(...Object.values(parts))).toBe(parts.system);
    // Nothing to weigh: it is all history.
    expect(contextParts({ system: 0, rules: 0, workspace: 0, mentions: 0, history: 0, toolResults: 0 }, 50, 5)).toEqual({ system: 0, rules: 0, workspace: 0, mentions: 0, history: 55, toolResults: 0 });
  });
});

describe('usage per message through a run', () => {
  it("records each answer's usage and cost under its message; they add up to the total and the meter's parts to each call", async () => {
    bench = projectBench(server);
    const first = { prompt_tokens: 1000, completion_tokens: 50, cached_tokens: 800, cache_write_tokens: 150 };
    const second = { prompt_tokens: 1100, completion_tokens: 10, cached_tokens: 950, cache_write_tokens: 100 };
    const { project } = await bench.project([reply.tool('ls', { path: '.' }, { usage: first }), reply.text('Empty.', { usage: second })], {
      overrides: [{ model: 'claude/claude-sonnet-4-5', providers: { claude: { preset: 'anthropic', baseURL: server.baseURL } } }],
    });
    const rec = recorder([{ approved: true }]);
    const result = await project.send('what is here?', rec);
    expect(result.status, result.error?.message).toBe('completed');

    const usages = rec.events.filter((e): e is Extract<ProjectEvent, { type: 'usage' }> => e.type === 'usage');
    expect(usages).toHaveLength(2);
    const price = modelPrice('anthropic/claude-sonnet-4-5', {})!;
    const ids = usages.map((u) => u.messageId!);
    expect(new Set(ids).size).toBe(2);
    // Each call's usage is under the message its answer was logged as.
    const logged = project.session.entries().flatMap((e) => (e.kind === 'message' && e.message.role === 'assistant' ? [e.id] : []));
    expect(logged).toEqual(ids);
    const byMessage = ids.map((id) => project.session.messageUsage(id)!);
    expect(byMessage[0]).toMatchObject({ inputTokens: 1000, outputTokens: 50, cachedInputTokens: 800, cacheWriteTokens: 150 });
    expect(byMessage[0]!.costUsd).toBeCloseTo(costOf(byMessage[0]!, price), 12);
    expect(byMessage[1]!.costUsd).toBeCloseTo((50 * 3 + 950 * 0.3 + 100 * 3.75 + 10 * 15) / 1e6, 12);

    const total = project.session.usageTotals();
    expect(byMessage[0]!.inputTokens + byMessage[1]!.inputTokens).toBe(total.inputTokens);
    expect(byMessage[0]!.outputTokens + byMessage[1]!.outputTokens).toBe(total.outputTokens);
    expect(byMessage[0]!.costUsd! + byMessage[1]!.costUsd!).toBeCloseTo(total.costUsd!, 12);

    for (const u of usages) {
      expect(sumOf(u.contextParts!)).toBe(u.inputTokens + u.outputTokens);
      expect(u.contextParts!.system).toBeGreaterThan(0);
    }
    // The second request carries the listing: its tool results take a share.
    expect(usages[1]!.contextParts!.toolResults).toBeGreaterThan(0);
    expect(usages[0]!.contextParts!.toolResults).toBe(0);
  });

  it('leaves the cost of a message unknown when its model has no price', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('hi', { usage: { prompt_tokens: 10, completion_tokens: 2 } })]);
    const rec = recorder();
    await project.send('hello', rec);
    const usage = rec.events.find((e): e is Extract<ProjectEvent, { type: 'usage' }> => e.type === 'usage')!;
    expect(project.session.messageUsage(usage.messageId!)).toEqual({ inputTokens: 10, outputTokens: 2 });
  });
});
