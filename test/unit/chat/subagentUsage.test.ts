// A task call's card says what its subagent used: the tokens of the subagent's own model calls
// (not the parent's), live as they come and the same after a resume from the log; the run's
// usage still counts them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { ToolCallPart, UiMessage } from '../../../src/protocol/uiMessage';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { createChatRig, settle, until } from './chatHarness';
import type { ChatRig } from './chatHarness';

let server: ScriptedServer;
let rig: ChatRig | undefined;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

const taskCard = (messages: readonly UiMessage[]) =>
  messages.flatMap((m) => m.parts).find((p): p is ToolCallPart => p.type === 'toolCall' && p.name === 'task');

it('shows the subagent\'s own tokens on its task card, live and resumed alike', async () => {
  rig = createChatRig({ baseUrl: server.baseURL, model: 'scripted-model', approvalMode: 'manual' });
  mkdirSync(join(rig.workspace, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(rig.workspace, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nREVIEWER');
  server.load({
    turns: [
      { ...reply.tool('task', { description: 'review hello', prompt: 'Review hello.txt', agent: 'reviewer' }), usage: { prompt_tokens: 5000, completion_tokens: 50 } },
      { ...reply.tool('read', { file_path: 'hello.txt' }), match: { systemIncludes: 'REVIEWER' }, usage: { prompt_tokens: 300, completion_tokens: 20 } },
      { ...reply.text('hello.txt says hello.'), match: { systemIncludes: 'REVIEWER' }, usage: { prompt_tokens: 400, completion_tokens: 30 } },
      { ...reply.text('Reviewed.'), match: { lastToolResultIncludes: 'says hello' }, usage: { prompt_tokens: 6000, completion_tokens: 10 } },
    ],
  });
  const page = rig.openPage();
  await until(() => page.store.snapshot !== undefined, 'snapshot');
  await page.bus.request('session.send', { text: 'review' });
  await until(() => !rig!.controller.isRunning, 'run end');
  await settle();
  const live = taskCard(page.store.messages)!;
  // The subagent's two calls, nothing of the parent's; no price for this model, so no cost.
  expect(live.usage).toEqual({ inputTokens: 700, outputTokens: 50 });
  const total = page.store.named('usage').at(-1) as { inputTokens: number; outputTokens: number };
  expect(total).toMatchObject({ inputTokens: 5000 + 300 + 400 + 6000, outputTokens: 50 + 20 + 30 + 10 });

  // Resumed from its log, the card has the same usage.
  const session = (page.store.named('session').at(-1) as { id: string }).id;
  await page.bus.request('session.new', {});
  await until(() => taskCard(page.store.messages) === undefined, 'new conversation');
  await page.bus.request('sessions.resume', { id: session });
  await until(() => taskCard(page.store.messages)?.usage !== undefined, 'resumed card');
  expect(taskCard(page.store.messages)!.usage).toEqual(live.usage);
});
