// A task call's card holds its subagent's steps: live through the mirror the page folds, and the
// same after a resume, rebuilt from the steps the log kept with the task's result.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { foldEvent, EMPTY_CONVERSATION, toolCallOf } from '../../../src/conversation/foldEvent';
import type { ToolCallPart, UiMessage } from '../../../src/protocol/uiMessage';
import { MAX_SUBAGENT_STEPS } from '../../../src/protocol/subagentSteps';
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

it('shows the subagent\'s steps on the task card, live and resumed alike', async () => {
  rig = createChatRig({ baseUrl: server.baseURL, model: 'scripted-model', approvalMode: 'manual' });
  mkdirSync(join(rig.workspace, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(rig.workspace, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nREVIEWER');
  server.load({
    turns: [
      reply.tool('task', { description: 'review hello', prompt: 'Review hello.txt', agent: 'reviewer' }),
      { ...reply.tool('read', { file_path: 'hello.txt' }), match: { systemIncludes: 'REVIEWER' } },
      { ...reply.text('hello.txt says hello.'), match: { systemIncludes: 'REVIEWER' } },
      { ...reply.text('Reviewed.'), match: { lastToolResultIncludes: 'says hello' } },
    ],
  });
  const page = rig.openPage();
  await until(() => page.store.snapshot !== undefined, 'snapshot');
  await page.bus.request('session.send', { text: 'review' });
  await until(() => !rig!.controller.isRunning, 'run end');
  await settle();
  const live = taskCard(page.store.messages)!;
  expect(live.state).toBe('done');
  expect(live.subagent).toMatchObject({
    agent: 'reviewer',
    steps: [
      { kind: 'tool', title: 'read', summary: 'hello.txt', state: 'done' },
      { kind: 'text', text: 'hello.txt says hello.' },
    ],
  });

  // A reloaded page gets the card in its snapshot.
  const reloaded = page.reload();
  await until(() => reloaded.store.snapshot !== undefined, 'snapshot after reload');
  expect(taskCard(reloaded.store.snapshot!.messages)!.subagent).toEqual(live.subagent);
  // Resumed from its log, the card has the same steps.
  const session = reloaded.store.snapshot!.session;
  await reloaded.bus.request('session.new', {});
  await until(() => taskCard(reloaded.store.messages) === undefined, 'new conversation');
  await reloaded.bus.request('sessions.resume', { id: session.id! });
  await until(() => taskCard(reloaded.store.messages)?.subagent !== undefined, 'resumed card');
  expect(taskCard(reloaded.store.messages)!.subagent).toEqual(live.subagent);
});

it('folds a subagent step onto its card: a call\'s result updates its step, old steps drop past the cap', () => {
  const display = { title: 'task', summary: 's', icon: 'organization', details: { kind: 'keyValue' as const, entries: [] } };
  let c = foldEvent(EMPTY_CONVERSATION, { type: 'message', data: { message: { id: 'a', role: 'assistant', parts: [], status: 'streaming', createdAt: 1 } } });
  c = foldEvent(c, { type: 'toolUse', data: { messageId: 'a', toolCallId: 't', name: 'task', input: {}, display, state: 'running' } });
  const step = (i: number) => ({ kind: 'tool' as const, id: `t.${i}`, title: 'read', summary: `f${i}`, state: 'running' as const });
  c = foldEvent(c, { type: 'subagentStep', data: { toolCallId: 't', agent: 'general', step: step(0) } });
  c = foldEvent(c, { type: 'subagentStep', data: { toolCallId: 't', agent: 'general', step: { ...step(0), state: 'done' } } });
  expect(toolCallOf(c, 't')!.subagent).toEqual({ agent: 'general', steps: [{ ...step(0), state: 'done' }] });
  for (let i = 1; i <= MAX_SUBAGENT_STEPS; i++) c = foldEvent(c, { type: 'subagentStep', data: { toolCallId: 't', agent: 'general', step: step(i) } });
  const held = toolCallOf(c, 't')!.subagent!;
  expect(held.steps).toHaveLength(MAX_SUBAGENT_STEPS);
  expect(held.dropped).toBe(1);
  expect(held.steps[0]).toMatchObject({ id: 't.1' });
  // A step for a card not in view changes nothing.
  expect(foldEvent(c, { type: 'subagentStep', data: { toolCallId: 'gone', agent: 'general', step: step(9) } })).toBe(c);
});
