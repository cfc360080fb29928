// Compaction and the context meter size a conversation against the model's context window:
// the person's config when it names one, else the model catalogue's, else the model family's;
// an unknown model has none (nothing compacts before a request). Over real HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/core/config/configSchema';
import { catalogueEntry } from '../../../src/core/model/modelCatalogue';
import type { Project } from '../../../src/core/project';
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

const summarizer = { systemIncludes: 'You summarize a conversation' };

/** About `tokens` tokens of earlier exchanges (chars/4), in 40 question/answer pairs. */
function fill(project: Project, tokens: number): void {
  const answerChars = Math.ceil((tokens * 4) / 40);
  for (let i = 0; i < 40; i++) {
    project.session.appendMessage({ role: 'user', content: `earlier question ${i}` });
    project.session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: `earlier answer ${i} ${'z'.repeat(answerChars)}` }] });
  }
}

const compacted = (events: ProjectEvent[]) => events.some((e) => e.type === 'compaction' && e.phase === 'done');

/** Sends one message after `tokens` of history; the server summarizes only if `summary` says it will be asked to. */
async function run(model: string, local: Omit<ProviderConfig, 'baseURL'>, tokens: number, summary: boolean) {
  bench = projectBench(server);
  const answer = { ...reply.text('Answered.'), match: { lastUserIncludes: 'newest question' } };
  const { ctx, project } = await bench.project(
    summary ? [{ ...reply.text('## Goal\nKeep going.'), match: summarizer }, answer] : [answer],
    { overrides: [{ model: `local/${model}`, providers: { local: { baseURL: server.baseURL, ...local } } }] },
  );
  fill(project, tokens);
  const r = recorder();
  const result = await project.send('the newest question', r);
  expect(result.status, JSON.stringify(result.error)).toBe('completed');
  return { window: ctx.models.resolve('model').contextWindow, compacted: compacted(r.events) };
}

describe("the model catalogue's context window", () => {
  it('compacts a catalogued model past 80% of its window, and not below it', async () => {
    const window = catalogueEntry('deepseek-chat')!.contextWindow;
    expect(await run('deepseek-chat', {}, window * 0.85, true)).toEqual({ window, compacted: true });
    expect(await run('deepseek-chat', {}, window * 0.7, false)).toEqual({ window, compacted: false });
  });

  it("gives a dated id its family's entry", async () => {
    bench = projectBench(server);
    const { ctx } = await bench.project([], { overrides: [{ model: 'local/gpt-4.1-mini-2025-04-14', providers: { local: { baseURL: server.baseURL } } }] });
    expect(ctx.models.resolve('model').contextWindow).toBe(catalogueEntry('gpt-4.1-mini')!.contextWindow);
  });

  it("is overridden by the person's config, for one model or the whole provider", async () => {
    const tokens = catalogueEntry('deepseek-chat')!.contextWindow * 0.85;
    expect(await run('deepseek-chat', { models: { 'deepseek-chat': { contextWindow: 1_000_000 } } }, tokens, false)).toEqual({ window: 1_000_000, compacted: false });
    expect(await run('deepseek-chat', { contextWindow: 64_000 }, 60_000, true)).toEqual({ window: 64_000, compacted: true });
  });

  it('leaves an unknown model without a window: nothing compacts before the request', async () => {
    expect(await run('house-model-7', {}, 150_000, false)).toEqual({ window: undefined, compacted: false });
  });
});
