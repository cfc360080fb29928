// A task call's card holds its subagent's steps and what its model calls used: live through the
// mirror the page folds, and the same after a resume, rebuilt from what the log kept with the task's result.
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
import type { ChatRig, Page } from './chatHarness';

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

/** A page of the rig that sent "review" and saw the run end. */
async function sendReview(on: ChatRig): Promise<Page> {
  const page = on.openPage();
  await until(() => page.store.snapshot !== undefined, 'snapshot');
  await page.bus.request('session.send', { text: 'review' });
  await until(() => !on.controller.isRunning, 'run end');
  await settle();
  return page;
}

/** A rig whose workspace has a read-only `reviewer` agent (its prompt: REVIEWER). */
function reviewerRig(): ChatRig {
  const made = createChatRig({ baseUrl: server.baseURL, model: 'scripted-model', approvalMode: 'manual' });
  mkdirSync(join(made.workspace, '.claude', 'agents'), { recursive: true });
  writeFileSync(join(made.workspace, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nREVIEWER');
  return made;
}

it('shows the subagent\'s steps on the task card, live and resumed alike', async () => {
  rig = reviewerRig();
  server.load({
    turns: [
      reply.tool('task', { description: 'review hello', prompt: 'Review hello.txt', agent: 'reviewer' }),
      { ...reply.tool('read', { file_path: 'hello.txt' }), match: { systemIncludes: 'REVIEWER' } },
      { ...reply.text('hello.txt says hello.'), match: { systemIncludes: 'REVIEWER' } },
      { ...reply.text('Reviewed.'), match: { lastToolResultIncludes: 'says hello' } },
    ],
  });
  const page = await sendReview(rig);
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

it('shows the subagent\'s own tokens on its task card, live and resumed alike', async () => {
  rig = reviewerRig();
  server.load({
    turns: [
      { ...reply.tool('task', { description: 'review hello', prompt: 'Review hello.txt', agent: 'reviewer' }), usage: { prompt_tokens: 5000, completion_tokens: 50 } },
      { ...reply.tool('read', { file_path: 'hello.txt' }), match: { systemIncludes: 'REVIEWER' }, usage: { prompt_tokens: 300, completion_tokens: 20 } },
      { ...reply.text('hello.txt says hello.'), match: { systemIncludes: 'REVIEWER' }, usage: { prompt_tokens: 400, completion_tokens: 30 } },
      { ...reply.text('Reviewed.'), match: { lastToolResultIncludes: 'says hello' }, usage: { prompt_tokens: 6000, completion_tokens: 10 } },
    ],
  });
  const page = await sendReview(rig);
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
