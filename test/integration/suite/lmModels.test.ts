/// <reference types="mocha" />
// Models from VS Code's Language Model API (vscode.lm): another extension
// (test/fixtures/extensions/keel-sample-models) provides a chat model with
// vscode.lm.registerLanguageModelChatProvider and forwards it to the scripted server over
// HTTP. Keel, with no model, endpoint or key configured, lists it, picks it by default,
// streams its reply and runs a tool call round trip through vscode.lm.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { KeelTestApi } from '../../../src/vscode/testHooks';
import { ChatPage } from './support/chatPage';
import { activateKeel, keelHomeForRun, setModelSettings } from './support/keelSetup';
import { contentText, lastToolResult, request } from './support/modelRequests';

keelHomeForRun();

const SAMPLE_ID = 'keel-test.keel-sample-models';

interface SampleModels {
  vendor: string;
  model: { id: string; name: string };
  setEndpoint(url: string | undefined): void;
  failNext(kind: 'quota' | 'noPermissions'): void;
}

/** VS Code resolves a provider's models in the background after it reports a change. */
async function sampleModel(vendor: string): Promise<vscode.LanguageModelChat> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [model] = await vscode.lm.selectChatModels({ vendor });
    if (model) return model;
    if (Date.now() > deadline) throw new Error(`VS Code never listed a model of ${vendor}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('models from VS Code (vscode.lm)', () => {
  let api: KeelTestApi;
  let sample: SampleModels;
  let server: ScriptedServer;
  let page: ChatPage;
  let lmId: string;

  before(async () => {
    api = await activateKeel();
    const extension = vscode.extensions.getExtension<SampleModels>(SAMPLE_ID);
    assert.ok(extension, `${SAMPLE_ID} is installed next to Keel (scripts/runIntegration.mjs links test/fixtures/extensions/*)`);
    sample = await extension.activate();
    server = await startScriptedServer();
    await setModelSettings(undefined); // no keel.model, no keel.baseUrl
    assert.strictEqual(process.env.OPENAI_API_KEY, undefined, 'the run has no API key');
    page = await ChatPage.open(api);
  });

  after(async () => {
    sample?.setEndpoint(undefined);
    // Leave Keel without a model again for the suites after this one.
    for (let i = 0; i < 200 && (await vscode.lm.selectChatModels({ vendor: sample.vendor })).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await page?.bus.request('models.list', {});
    page?.close();
    await server?.close();
  });

  it('lists the model another extension provides and uses it by default, without a key', async () => {
    assert.deepStrictEqual(await vscode.lm.selectChatModels({ vendor: sample.vendor }), [], 'the sample offers nothing before it has an endpoint');
    const before = await page.bus.request('models.list', {});
    assert.ok(!before.models.some((m) => m.id.startsWith('vscode-lm/')), 'nothing from VS Code is listed yet');

    sample.setEndpoint(server.baseURL);
    const offered = await sampleModel(sample.vendor);
    lmId = `vscode-lm/${offered.id}`;

    // What the model picker does when it opens; Keel notices the new model and rebuilds.
    await page.bus.request('models.list', {});
    await page.waitFor(() => page.config?.modelConfigured === true, 'Keel to take the new VS Code model as its model');
    const listed = await page.bus.request('models.list', {});
    const entry = listed.models.find((m) => m.id === lmId);
    assert.ok(entry, `the model picker lists ${lmId} (got ${listed.models.map((m) => m.id).join(', ')})`);
    assert.match(entry.label ?? '', /Sample Chat/);
    assert.strictEqual(entry.contextWindow, 64000);
    assert.strictEqual(listed.current, lmId, 'with nothing configured, it is the model in use');
    assert.strictEqual(page.config?.problem, null);
  });

  it('streams a reply and does a tool call round trip through vscode.lm', async () => {
    assert.ok(lmId, 'the previous test found the model');
    await page.newChat();
    server.load({
      turns: [
        reply.tool('read', { file_path: 'src/greet.ts' }, { match: { toolsInclude: ['read', 'write'], lastUserIncludes: 'greet' } }),
        reply.text('greet() says hello to a trimmed name, or to a stranger.', {
          chunkSize: 5,
          delayMs: 60,
          match: { lastToolResultIncludes: 'Hello, stranger!' },
        }),
      ],
    });
    const from = page.events.length;
    await page.sendAndSettle('what does greet do?');

    assert.strictEqual(server.pendingTurns(), 0, 'both turns went through the provider to the endpoint');
    const first = request(server, 0);
    // vscode.lm has no system role: Keel's system prompt travels as the first user message.
    const firstUser = first.body.messages.find((m) => m.role === 'user');
    assert.ok(firstUser && /Keel/.test(contentText(firstUser)), 'the system prompt reached the model');
    assert.match(lastToolResult(request(server, 1)), /Hello, stranger!/, 'the tool result reached the next request');
    const call = page.toolCalls().at(-1);
    assert.strictEqual(call?.name, 'read');
    assert.strictEqual(call?.state, 'done');

    const answer = page.last('assistant');
    const deltas = page.events.slice(from).filter((e) => e.name === 'textDelta' && (e.data as { messageId: string }).messageId === answer?.id);
    assert.ok(deltas.length >= 2, `the reply streamed in pieces (${deltas.length} deltas)`);
    assert.strictEqual(page.text(page.last('assistant')), 'greet() says hello to a trimmed name, or to a stranger.');

    // The API reports no usage; Keel counts with the model's tokenizer (the provider's provideTokenCount).
    const usage = page.named('usage').at(-1) as { inputTokens: number; outputTokens: number; contextWindow?: number } | undefined;
    assert.ok(usage && usage.inputTokens > 0 && usage.outputTokens > 0, `tokens were counted (${JSON.stringify(usage)})`);
    assert.strictEqual(usage.contextWindow, 64000, "the context meter uses the model's maxInputTokens");
  });

  for (const [kind, expected] of [
    ['quota', /Sample Chat \(from keel-sample\) is over its quota or rate limit; wait a moment or choose another model\..*monthly quota/],
    ['noPermissions', /Keel may not use Sample Chat \(from keel-sample\) yet: allow Keel to use language models/],
  ] as const) {
    it(`a provider's ${kind} failure reaches the person as a clear error, and the next message works`, async () => {
      assert.ok(lmId, 'the first test found the model');
      await page.newChat();
      sample.failNext(kind);
      server.load({ turns: [reply.text('back again')] });
      const errorsBefore = page.errors.length;
      await page.sendAndSettle('first try');
      const error = page.errors.slice(errorsBefore).at(-1);
      assert.ok(error, 'the run ended with an error shown to the person');
      assert.match(error.message, expected);
      assert.strictEqual(server.requests.length, 0, 'the failed request never reached the endpoint');

      await page.sendAndSettle('second try');
      assert.strictEqual(page.text(page.last('assistant')), 'back again');
    });
  }

  it('a chosen VS Code model that is gone is named in a clear problem', async () => {
    await vscode.workspace.getConfiguration('keel').update('model', 'vscode-lm/no-such-model', vscode.ConfigurationTarget.Global);
    try {
      await page.waitFor(() => /VS Code offers no language model "no-such-model"/.test(page.config?.problem ?? ''), 'the problem banner');
      assert.match(page.config?.problem ?? '', /vscode-lm\//, 'it names what VS Code does offer');
    } finally {
      await vscode.workspace.getConfiguration('keel').update('model', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
