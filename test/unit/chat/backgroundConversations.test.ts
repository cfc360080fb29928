import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolApprovalRequest, ToolApprovalAnswer } from '../../../src/protocol/toolApproval';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import type { ChatRig, Page } from './chatHarness';
import { useChatRig } from './chatSuite';

const rigs = useChatRig();

/** A slow answer: one character every `delayMs`, so its run is still going while others start and end. */
const slow = (text: string, match: string, delayMs = 40) => ({ ...reply.text(text, { chunkSize: 1, delayMs }), match: { lastUserIncludes: match } });
const quick = (text: string, match: string) => ({ ...reply.text(text), match: { lastUserIncludes: match } });

const textOf = (m: UiMessage | undefined): string => (m?.parts ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');

function sessionLog(rig: ChatRig, id: string): string {
  const [key] = readdirSync(join(rig.home, 'projects'));
  return readFileSync(join(rig.home, 'projects', key!, 'sessions', `${id}.jsonl`), 'utf8');
}

/** Sends in the conversation in view and waits until the model got its request (so scripted turns are taken in order). */
async function sendAndReachModel(page: Page, text: string): Promise<void> {
  const before = rigs.server.requests.length;
  await page.bus.request('session.send', { text });
  await until(() => rigs.server.requests.length > before, `the model's request for "${text}"`);
}

function lastSessionId(page: Page): string {
  return (page.store.named('session').at(-1) as { id: string }).id;
}

describe('background conversations', () => {
  it('two conversations run at once: New Chat does not stop the first, both finish, each log holds its own answer', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({ turns: [slow('Answer for A, told slowly.', 'question A'), quick('Answer for B.', 'question B')] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await sendAndReachModel(page, 'question A');
    const a = lastSessionId(page);

    await page.bus.request('session.new', {});
    await settle();
    expect(page.store.messages).toEqual([]);
    const newChatAt = page.store.events.length;
    await sendAndReachModel(page, 'question B');
    await until(() => page.store.messages.at(-1)?.role === 'assistant' && page.store.messages.at(-1)?.status === 'done', 'B answered');
    const b = lastSessionId(page);
    expect(b).not.toBe(a);
    // B is done and A still streams in the background: they ran at the same time.
    expect(rig.controller.sessionActivities()).toEqual({ [a]: 'running' });
    expect(textOf(page.store.messages.at(-1))).toBe('Answer for B.');
    // Nothing of A reached the page showing B: every streamed event since names one of B's messages.
    const shownIds = new Set(page.store.messages.map((m) => m.id));
    const streamed = page.store.events.slice(newChatAt).filter((e) => e.name === 'textDelta' || e.name === 'message');
    expect(streamed.length).toBeGreaterThan(0);
    for (const e of streamed) expect(shownIds.has((e.data as { messageId?: string; id?: string }).messageId ?? (e.data as { id: string }).id)).toBe(true);

    await until(() => !rig.controller.isRunning, 'A finished');
    expect(rig.controller.sessionActivities()).toEqual({ [a]: 'finished' });
    const listed = await page.bus.request('sessions.list', {});
    expect(listed.sessions.find((s) => s.id === a)?.activity).toBe('finished');
    expect(listed.sessions.find((s) => s.id === b)?.activity).toBeUndefined();

    expect(sessionLog(rig, a)).toContain('Answer for A, told slowly.');
    expect(sessionLog(rig, a)).not.toContain('Answer for B.');
    expect(sessionLog(rig, b)).toContain('Answer for B.');
    expect(sessionLog(rig, b)).not.toContain('told slowly');

    // Opening A shows everything that happened while it ran unseen; it is no longer "unseen".
    await page.bus.request('sessions.resume', { id: a });
    await settle();
    expect(textOf(page.store.messages.at(-1))).toBe('Answer for A, told slowly.');
    expect(rig.controller.sessionActivities()).toEqual({});
  });

  it('opening a conversation mid-stream: the page gets its snapshot, then its deltas, and ends as the host holds it', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    const long = 'A long answer that is still streaming while the person looks elsewhere and comes back.';
    rigs.server.load({ turns: [slow(long, 'long one', 30)] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await sendAndReachModel(page, 'long one');
    const a = lastSessionId(page);
    await page.bus.request('session.new', {});
    await settle();
    const newChatAt = page.store.events.length;
    await until(() => rig.controller.sessionActivities()[a] === 'running', 'A running in the background');
    // Some of it streams unseen first.
    const background = rig.controller['window'].find(a)!;
    await until(() => textOf(background.state.messages().at(-1)).length > 5, 'A streaming in the background');
    // None of it reached the page showing the new chat.
    expect(page.store.events.slice(newChatAt).filter((e) => e.name === 'textDelta' || e.name === 'message')).toEqual([]);
    const from = page.store.events.length;
    await page.bus.request('sessions.resume', { id: a });
    await until(() => page.store.events.slice(from).some((e) => e.name === 'snapshot'), 'the snapshot of A');
    expect(rig.controller.sessionActivities()).toEqual({ [a]: 'running' });
    await until(() => !rig.controller.isRunning, 'A finished');
    await settle();
    expect(page.store.messages).toEqual(rig.controller.messages());
    expect(textOf(page.store.messages.at(-1))).toBe(long);
    // The rest reached the page as deltas after its snapshot.
    const after = page.store.events.slice(from);
    expect(after.findIndex((e) => e.name === 'textDelta')).toBeGreaterThan(after.findIndex((e) => e.name === 'snapshot'));
    expect(rig.controller.sessionActivities()).toEqual({});
  });

  it('with keel.maxConcurrentRuns 3 the fourth run waits, listed as queued, and starts when one ends', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' }, { controller: { maxConcurrentRuns: () => 3 } });
    rigs.server.load({
      turns: [slow('One done.', 'task 1', 60), slow('Two done.', 'task 2', 60), slow('Three done.', 'task 3', 60), quick('Four done.', 'task 4')],
    });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      if (n > 1) await page.bus.request('session.new', {});
      await sendAndReachModel(page, `task ${n}`);
      ids.push(lastSessionId(page));
    }
    await page.bus.request('session.new', {});
    const fourth = await page.bus.request('session.send', { text: 'task 4' });
    expect(fourth.queued).toBe(true);
    await settle();
    // Its session exists already, so the list can say it waits.
    const waiting = Object.entries(rig.controller.sessionActivities()).filter(([, state]) => state === 'queued');
    expect(waiting).toHaveLength(1);
    const queuedId = waiting[0]![0];
    const listed = await page.bus.request('sessions.list', {});
    expect(listed.sessions.find((s) => s.id === queuedId)?.activity).toBe('queued');
    expect(rigs.server.requests).toHaveLength(3);
    expect(page.store.messages.map((m) => [m.role, m.status])).toEqual([['user', 'queued']]);

    await until(() => page.store.messages.at(-1)?.role === 'assistant' && page.store.messages.at(-1)?.status === 'done', 'the fourth answered');
    expect(textOf(page.store.messages.at(-1))).toBe('Four done.');
    // It was sent only after one of the three had ended.
    const fourthRequest = rigs.server.requests.findIndex((r) => JSON.stringify(r.body.messages).includes('task 4'));
    expect(fourthRequest).toBe(3);
    await until(() => !rig.controller.isRunning, 'all finished');
    for (const id of ids) expect(sessionLog(rig, id)).toMatch(/(One|Two|Three) done\./);
  });

  it('an approval in a background conversation waits (badge, notice naming it) and is answered after opening it', async () => {
    const notices: { sessionId: string; title: string }[] = [];
    const badge: number[] = [];
    const rig = rigs.open(
      { baseUrl: rigs.server.baseURL, model: 'scripted-model' },
      {
        controller: {
          onApprovalNeeded: (background) => background && notices.push(background),
          onApprovalsWaiting: (count) => badge.push(count),
        },
      },
    );
    rigs.server.load({
      turns: [
        // The tool call comes slowly, so it arrives after the person moved to a new chat.
        { ...reply.tool('write', { file_path: 'later.md', content: 'written later\n' }, { delayMs: 150 }), match: { lastUserIncludes: 'write later.md' } },
        quick('Wrote later.md.', 'write later.md'),
      ],
    });
    let answering = false;
    const answer = (request: ToolApprovalRequest): Promise<ToolApprovalAnswer> | ToolApprovalAnswer => {
      if (answering) return { approved: true, scope: 'once' };
      // Not answered now: the card stays until the host withdraws it.
      return new Promise<ToolApprovalAnswer>(() => undefined).then(() => ({ approved: false, reason: `never: ${request.id}` }));
    };
    const page = rig.openPage(answer);
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await sendAndReachModel(page, 'write later.md');
    const a = lastSessionId(page);
    await page.bus.request('session.new', {});

    await until(() => rig.controller.approvalsWaiting === 1, 'the background approval');
    expect(badge.at(-1)).toBe(1);
    expect(notices).toEqual([{ sessionId: a, title: 'write later.md' }]);
    expect(page.approvals).toEqual([]);
    expect(rig.controller.sessionActivities()).toEqual({ [a]: 'approval' });
    expect((await page.bus.request('sessions.list', {})).sessions.find((s) => s.id === a)?.activity).toBe('approval');
    // Nobody looked: nothing was written, and the run still waits.
    await settle();
    expect(existsSync(join(rig.workspace, 'later.md'))).toBe(false);
    expect(rig.controller.isRunning).toBe(true);

    answering = true;
    await page.bus.request('sessions.resume', { id: a });
    await until(() => page.approvals.length === 1, 'the card of the opened conversation');
    expect(page.approvals[0]).toMatchObject({ tool: 'write', change: { displayPath: 'later.md' } });
    await until(() => !rig.controller.isRunning, 'the run went on and ended');
    expect(readFileSync(join(rig.workspace, 'later.md'), 'utf8')).toBe('written later\n');
    expect(badge.at(-1)).toBe(0);
    expect(textOf(page.store.messages.at(-1))).toBe('Wrote later.md.');
  });

  it('a run that fails in the background is listed as failed until opened; deleting a running one stops it first', async () => {
    const asked: string[] = [];
    const rig = rigs.open(
      { baseUrl: rigs.server.baseURL, model: 'scripted-model' },
      { controller: { sessionUi: { confirmDelete: async (title) => (asked.push(title), true), exportSession: async () => false } } },
    );
    rigs.server.load({ turns: [{ ...reply.text('an answer that breaks off', { chunkSize: 1, delayMs: 100, streamError: { message: 'the model broke down' }, afterChunks: 8 }), match: { lastUserIncludes: 'doomed' } }, reply.hang()] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    const from = page.store.events.length;
    await page.bus.request('session.send', { text: 'doomed question' });
    await until(() => page.store.events.slice(from).some((e) => e.name === 'session' && (e.data as { id: string | null }).id !== null), 'saved session');
    const a = lastSessionId(page);
    await page.bus.request('session.new', {});
    expect(rig.controller.sessionActivities()).toEqual({ [a]: 'running' });
    await until(() => rig.controller.sessionActivities()[a] === 'failed', 'A failed unseen');
    expect((await page.bus.request('sessions.list', {})).sessions.find((s) => s.id === a)?.activity).toBe('failed');
    await page.bus.request('sessions.resume', { id: a });
    expect(rig.controller.sessionActivities()).toEqual({});

    await page.bus.request('session.new', {});
    await sendAndReachModel(page, 'never answered');
    const b = lastSessionId(page);
    await page.bus.request('session.new', {});
    expect(rig.controller.sessionActivities()).toEqual({ [b]: 'running' });
    expect(await page.bus.request('sessions.delete', { id: b })).toEqual({ deleted: true });
    expect(asked).toEqual(['never answered']);
    expect(rig.controller.isRunning).toBe(false);
    expect(rig.controller.sessionActivities()).toEqual({});
    expect(existsSync(join(rig.home, 'projects', readdirSync(join(rig.home, 'projects'))[0]!, 'sessions', `${b}.jsonl`))).toBe(false);
  });

  it('Stop acts on the conversation in view only; closing the window stops every run', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({ turns: [reply.hang(), reply.hang()] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    await sendAndReachModel(page, 'first');
    const a = lastSessionId(page);
    await page.bus.request('session.new', {});
    await sendAndReachModel(page, 'second');
    const b = lastSessionId(page);
    expect(rig.controller.sessionActivities()).toEqual({ [a]: 'running', [b]: 'running' });
    expect((await page.bus.request('session.cancel', {})).cancelled).toBe(true);
    await until(() => rig.controller.sessionActivities()[b] === undefined, 'B stopped');
    expect(rig.controller.sessionActivities()).toEqual({ [a]: 'running' });
    await rig.controller.dispose();
    expect(rig.controller.isRunning).toBe(false);
  });
});
