// Tokens and cost a person can see: what the provider reports of cache reads and writes and of
// reasoning reaches the run's result and the session's records, priced from the catalogue or the
// person's own prices (never a workspace's), and an unknown model's price stays unknown.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import { narrowWorkspaceLayer } from '../../../src/core/config/workspaceNarrowing';
import { catalogueEntry, costOf, modelPrice } from '../../../src/core/model/modelCatalogue';
import { usageText } from '../../../src/core/session/usageText';
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

describe('the model catalogue', () => {
  it('knows a dated id by its family, and does not guess a price for a model it does not know', () => {
    expect(catalogueEntry('anthropic/claude-sonnet-4-5-20250929')?.price).toEqual({ input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 });
    expect(catalogueEntry('openrouter/openai/gpt-5-mini')?.contextWindow).toBe(400_000);
    expect(catalogueEntry('o3-pro')).toBeUndefined();
    expect(modelPrice('ollama/qwen2.5-coder:7b', {})).toBeUndefined();
  });

  it("prices cache reads and writes at their own rates, and takes the person's price over the catalogue's", () => {
    const usage = { inputTokens: 1000, outputTokens: 50, cachedInputTokens: 800, cacheWriteTokens: 150 };
    // 50 fresh × $3 + 800 cached × $0.30 + 150 written × $3.75 + 50 out × $15, per million.
    expect(costOf(usage, modelPrice('anthropic/claude-sonnet-4-5', {})!)).toBeCloseTo(0.0017025, 10);
    expect(modelPrice('anthropic/claude-sonnet-4-5', { 'anthropic/claude-sonnet-4-5': { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
    expect(modelPrice('local/my-model', { 'my-model': { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
  });

  it('ignores prices a workspace sets', () => {
    const person = { config: defaultConfig, providers: new Set<string>(), sources: [] };
    const { layer, warnings } = narrowWorkspaceLayer({ origin: '/ws/.keel/config.json', layer: { prices: { 'gpt-5': { input: 0, output: 0 } } } }, person);
    expect(layer.prices).toBeUndefined();
    expect(warnings.join('\n')).toContain('"prices"');
  });
});

describe('usage through a run', () => {
  it('carries cache reads, cache writes and the cost from an Anthropic stream to the result, the session and the final line', async () => {
    bench = projectBench(server);
    const { project } = await bench.project(
      [
        reply.tool('ls', { path: '.' }, { usage: { prompt_tokens: 1000, completion_tokens: 50, cached_tokens: 800, cache_write_tokens: 150 } }),
        reply.text('Empty.', { usage: { prompt_tokens: 1100, completion_tokens: 10, cached_tokens: 950, cache_write_tokens: 100 } }),
      ],
      { overrides: [{ model: 'claude/claude-sonnet-4-5', providers: { claude: { preset: 'anthropic', baseURL: server.baseURL } } }] },
    );
    const result = await project.send('what is here?', recorder([{ approved: true }]));
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.usage).toMatchObject({ inputTokens: 2100, outputTokens: 60, cachedInputTokens: 1750, cacheWriteTokens: 250 });
    const expected = (50 * 3 + 800 * 0.3 + 150 * 3.75 + 50 * 15 + (1100 - 950 - 100) * 3 + 950 * 0.3 + 100 * 3.75 + 10 * 15) / 1e6;
    expect(result.usage.costUsd).toBeCloseTo(expected, 10);

    const totals = project.session.summary().usage;
    expect(totals).toMatchObject({ inputTokens: 2100, outputTokens: 60, cachedInputTokens: 1750, cacheWriteTokens: 250 });
    expect(totals.costUsd).toBeCloseTo(expected, 10);
    expect(usageText(totals)).toBe('2,100 in / 60 out tokens (1,750 cached, 250 written to cache), $0.0027');
  });

  it('says "unknown price" for a model without one', async () => {
    bench = projectBench(server);
    const { project } = await bench.project([reply.text('hi', { usage: { prompt_tokens: 10, completion_tokens: 2 } })]);
    const result = await project.send('hello', recorder());
    expect(result.usage.costUsd).toBeUndefined();
    expect(project.session.summary().usage).toEqual({ inputTokens: 10, outputTokens: 2 });
    expect(usageText(project.session.summary().usage)).toBe('10 in / 2 out tokens, unknown price');
  });
});
