import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PlanInfo } from '../../../src/protocol/planState';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import { useChatRig } from './chatSuite';
import type { ChatRig, Page } from './chatHarness';

const rigs = useChatRig();

const PLAN = '## Goal\nGreet.\n\n## Steps\n1. Read hello.txt\n2. Say hello\n\n## Risks\nNone.\n\n## Verification\nLook.';

function planEvents(page: Page): (PlanInfo | null)[] {
  const seen: (PlanInfo | null)[] = [];
  page.bus.on('plan', ({ plan }) => seen.push(plan));
  return seen;
}

async function idle(chat: ChatRig): Promise<void> {
  await until(() => !chat.controller.isRunning, 'run end');
  await settle();
}

async function planned(turns = [reply.text(PLAN)]) {
  const chat = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
  rigs.server.load({ turns });
  const page = chat.openPage();
  const plans = planEvents(page);
  await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
  await page.bus.request('session.send', { text: 'plan a greeting', mode: 'plan' });
  await idle(chat);
  return { chat, page, plans };
}

describe('plan mode in the chat controller', () => {
  it('a plan-mode answer becomes the plan the view offers, and a reloaded view gets it in its snapshot', async () => {
    const { chat, page, plans } = await planned();
    expect(plans.at(-1)).toEqual({ id: 'plan-1', status: 'proposed', steps: 2 });
    expect(chat.controller.mode).toBe('plan');
    const reloaded = page.reload();
    await until(() => reloaded.store.snapshot !== undefined, 'snapshot after reload');
    expect(reloaded.store.snapshot!.plan).toEqual({ id: 'plan-1', status: 'proposed', steps: 2 });
    expect(reloaded.store.snapshot!.state.mode).toBe('plan');
  });

  it('executes the edited plan in act mode in the same session, with the steps as a live todo list', async () => {
    const { chat, page, plans } = await planned([
      reply.text(PLAN),
      { ...reply.text('Greeted.'), match: { lastUserIncludes: 'Say hello loudly' } },
    ]);
    const sessionBefore = page.store.named('session').at(-1) as { id: string };
    const file = chat.controller['current'].slot.current!.plans.filePath('plan-1');
    writeFileSync(file, PLAN.replace('2. Say hello', '2. Say hello loudly'));
    const { messageId } = await page.bus.request('plan.execute', { planId: 'plan-1' });
    await idle(chat);
    const states = page.store.named('state') as { mode: string }[];
    expect(states.at(-1)!.mode).toBe('act');
    expect(JSON.stringify(rigs.server.requests.at(-1)!.body.messages.at(-1))).toContain('Say hello loudly');
    expect(page.store.named('todos')[0]).toEqual({
      items: [
        { id: 'step-1', content: 'Read hello.txt', status: 'pending' },
        { id: 'step-2', content: 'Say hello loudly', status: 'pending' },
      ],
    });
    expect(plans.at(-1)).toMatchObject({ id: 'plan-1', status: 'executed' });
    const user = chat.controller.messages().find((m) => m.id === messageId)!;
    expect(JSON.stringify(user.parts)).toContain('Say hello loudly');
    expect((page.store.named('session').at(-1) as { id: string }).id).toBe(sessionBefore.id);
    await expect(page.bus.request('plan.execute', { planId: 'plan-1' })).rejects.toThrow(/already executed/);
  });

  it('refine stays in plan mode and makes the next plan; discard sets a plan aside', async () => {
    const { chat, page, plans } = await planned([
      reply.text(PLAN),
      { ...reply.text(PLAN.replace('2. Say hello', '2. Say hello\n3. Wave')), match: { lastUserIncludes: 'also wave' } },
    ]);
    await page.bus.request('plan.refine', { planId: 'plan-1', feedback: 'also wave' });
    await idle(chat);
    expect(chat.controller.mode).toBe('plan');
    expect(plans.at(-1)).toEqual({ id: 'plan-2', status: 'proposed', steps: 3 });
    const tools = (rigs.server.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(tools).not.toContain('write');
    const { plan } = await page.bus.request('plan.discard', { planId: 'plan-2' });
    expect(plan.status).toBe('discarded');
    await expect(page.bus.request('plan.execute', { planId: 'plan-2' })).rejects.toThrow(/already discarded/);
  });

  it('mode.set switches the mode for the next message', async () => {
    const chat = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
      rigs.server.load({ turns: [reply.text(PLAN)] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    expect(await page.bus.request('mode.set', { mode: 'plan' })).toEqual({ mode: 'plan' });
    await page.bus.request('session.send', { text: 'what would you do?' });
    await idle(chat);
    expect(JSON.stringify(rigs.server.requests[0]!.body.messages[0])).toContain('plan mode');
    expect(page.store.named('state').some((s) => (s as { mode: string }).mode === 'plan')).toBe(true);
  });
});
