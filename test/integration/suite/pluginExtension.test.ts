/// <reference types="mocha" />
// Another extension (test/fixtures/extensions/keel-sample-plugin, loaded next to Keel by the
// rig) extends Keel through its public API: its system prompt line and its tool reach the
// model, the tool follows the approval rules, a broken plugin is skipped and logged, and
// disposing the registration takes the plugin out of the next run.
import * as assert from 'node:assert';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { RecordedRequest } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import type { KeelTestApi } from '../../../src/vscode/testHooks';
import { ChatPage } from './support/chatPage';
import { MODEL, activateKeel, keelHomeForRun, setApprovalMode, setModelSettings, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request, systemText } from './support/modelRequests';

keelHomeForRun();

const SAMPLE_ID = 'keel-test.keel-sample-plugin';

/** What the sample extension's activate() returns (its own test surface). */
interface SampleExports {
  promptLine: string;
  stamped: string[];
  unregister(): void;
  register(): void;
  registerBroken(): vscode.Disposable;
}

function toolNames(req: RecordedRequest): string[] {
  const tools = (req.body as { tools?: { function?: { name?: string } }[] }).tools ?? [];
  return tools.map((t) => t.function?.name ?? '');
}

describe('a plugin from another extension', () => {
  let api: KeelTestApi;
  let sample: SampleExports;
  let server: ScriptedServer;
  let page: ChatPage;

  before(async () => {
    api = await activateKeel();
    const extension = vscode.extensions.getExtension<SampleExports>(SAMPLE_ID);
    assert.ok(extension, `${SAMPLE_ID} is loaded next to Keel (scripts/runIntegration.mjs loads test/fixtures/extensions/*)`);
    sample = await extension.activate();
    server = await startScriptedServer();
    await setApprovalMode(undefined); // manual: a write-category tool asks
    await setModelSettings({ baseUrl: server.baseURL, model: MODEL });
    page = await ChatPage.open(api);
    await page.waitFor(() => page.config?.modelConfigured === true, 'a configured model');
  });

  beforeEach(async () => {
    await page.newChat();
  });

  after(async () => {
    sample?.unregister();
    page?.close();
    await setModelSettings(undefined);
    await server?.close();
  });

  it('its system prompt line and tool reach the model; the tool asks, runs after Approve, and its result reaches the next request', async () => {
    const target = join(workspaceFolder(), 'stamp.txt');
    rmSync(target, { force: true });
    server.load({
      turns: [
        reply.tool('sample_stamp', { file: 'stamp.txt', text: 'approved by the person' }, {
          match: { systemIncludes: sample.promptLine, toolsInclude: ['sample_stamp'] },
        }),
        reply.text('Stamped.', { match: { lastToolResultIncludes: 'Stamped stamp.txt' } }),
      ],
    });
    const from = page.events.length;
    await page.send('stamp the file');

    const asked = await page.nextApproval();
    assert.strictEqual(asked.request.tool, 'sample_stamp');
    assert.strictEqual(asked.request.category, 'write', 'the plugin declared its category and the approval card shows it');
    assert.strictEqual(existsSync(target), false, 'nothing runs before the answer');
    asked.answer({ approved: true, scope: 'once' });
    await page.runEnded(from);

    assert.match(systemText(request(server, 0)), new RegExp(sample.promptLine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.ok(toolNames(request(server, 0)).includes('sample_stamp'), 'the plugin tool is offered next to the built-in ones');
    assert.ok(toolNames(request(server, 0)).includes('read'));
    assert.match(lastToolResult(request(server, 1)), /Stamped stamp\.txt with "approved by the person"/);
    assert.strictEqual(readFileSync(target, 'utf8'), 'approved by the person\n');
    assert.strictEqual(page.text(page.last('assistant')), 'Stamped.');
    assert.strictEqual(server.pendingTurns(), 0);
  });

  it('Reject keeps a plugin tool from running, as for a built-in one', async () => {
    const target = join(workspaceFolder(), 'rejected-stamp.txt');
    rmSync(target, { force: true });
    const before = sample.stamped.length;
    server.load({
      turns: [
        reply.tool('sample_stamp', { file: 'rejected-stamp.txt', text: 'no' }),
        reply.text('Left alone.', { match: { lastToolResultIncludes: 'declined' } }),
      ],
    });
    const from = page.events.length;
    await page.send('stamp another file');
    const asked = await page.nextApproval();
    assert.strictEqual(asked.request.tool, 'sample_stamp');
    asked.answer({ approved: false });
    await page.runEnded(from);
    assert.strictEqual(existsSync(target), false);
    assert.strictEqual(sample.stamped.length, before, 'the tool never ran');
  });

  it('a plugin that throws is skipped for that call and logged; the conversation goes on', async () => {
    const broken = sample.registerBroken();
    try {
      server.load({ turns: [reply.text('still answering', { match: { systemIncludes: sample.promptLine } })] });
      await page.sendAndSettle('hello');
      assert.strictEqual(page.text(page.last('assistant')), 'still answering');
      assert.strictEqual(server.pendingTurns(), 0, 'the other plugin still added its line');
      const logged = api.testHooks.logLines().join('\n');
      assert.match(logged, /error: Plugin "sample-broken" failed in hook "systemPrompt" and was skipped: the sample plugin broke on purpose/);
    } finally {
      broken.dispose();
    }
  });

  it('disposing the registration removes the plugin from the next run', async () => {
    sample.unregister();
    try {
      server.load({ turns: [reply.text('plain')] });
      await page.sendAndSettle('hello again');
      const req = request(server, 0);
      assert.doesNotMatch(systemText(req), /Sample plugin:/);
      assert.ok(!toolNames(req).includes('sample_stamp'), 'its tool is gone');
      assert.ok(toolNames(req).includes('read'));
    } finally {
      sample.register();
    }
  });
});
