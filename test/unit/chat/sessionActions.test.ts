import { describe, expect, it } from 'vitest';
import type { ExportSource } from '../../../src/core/session/sessionExport';
import { sessionToMarkdown } from '../../../src/core/session/sessionExport';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import type { ExportFormat, SessionUi } from '../../../src/chat/sessions/sessionUi';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { userTexts, assistantTexts } from '../../integration/suite/support/modelRequests';
import { settle, until } from './chatHarness';
import { useChatRig } from './chatSuite';
import type { ChatRig, Page } from './chatHarness';

const rigs = useChatRig();
let rig: ChatRig | undefined;

class RecordingUi implements SessionUi {
  confirm = true;
  readonly asked: string[] = [];
  readonly exports: { source: ExportSource; format: ExportFormat }[] = [];
  async confirmDelete(title: string): Promise<boolean> {
    this.asked.push(title);
    return this.confirm;
  }
  async exportSession(source: ExportSource, format: ExportFormat): Promise<boolean> {
    this.exports.push({ source, format });
    return true;
  }
}

const text = (m: UiMessage): string => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
const shown = (page: Page): string[][] => page.store.messages.map((m) => [m.role, text(m)]);

async function sendAndWait(chat: ChatRig, page: Page, message: string): Promise<string> {
  const { messageId } = await page.bus.request('session.send', { text: message });
  await until(() => !chat.controller.isRunning && page.store.messages.at(-1)?.role === 'assistant' && page.store.messages.at(-1)?.status === 'done', `reply to ${message}`);
  await settle();
  return messageId;
}

describe('Edit and resend, and branches', () => {
  it('sends the edited branch to the model (not the abandoned one), shows "2/2", and switches back', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    const chat = rig;
    rigs.server.load({ turns: [reply.text('first answer'), reply.text('it is blue'), reply.text('it is green'), reply.text('bigger blue')] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await sendAndWait(chat, page, 'first question');
    const blueId = await sendAndWait(chat, page, 'make it blue');

    // The live message id (not yet a session id) is enough to edit it.
    const from = page.store.named('snapshot').length;
    await page.bus.request('session.editAndResend', { messageId: blueId, text: 'make it green' });
    await until(() => page.store.named('snapshot').length > from, 'the snapshot of the branch point');
    await until(() => !chat.controller.isRunning && page.store.messages.at(-1)?.status === 'done' && text(page.store.messages.at(-1)!) === 'it is green', 'the green reply');
    await settle();

    const sent = rigs.server.requests[2]!;
    expect(userTexts(sent)).toEqual(['first question', 'make it green']);
    expect(assistantTexts(sent)).toEqual(['first answer']);
    expect(shown(page)).toEqual([
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'make it green'],
      ['assistant', 'it is green'],
    ]);
    const green = page.store.messages[2]!;
    expect(green.branch).toEqual({ index: 2, count: 2 });
    expect(page.store.messages).toEqual(chat.controller.messages());

    // Back to version 1: the view and the model's history follow the blue branch again.
    await page.bus.request('session.switchBranch', { messageId: green.id, index: 1 });
    await settle();
    expect(shown(page)).toEqual([
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'make it blue'],
      ['assistant', 'it is blue'],
    ]);
    expect(page.store.messages[2]!.branch).toEqual({ index: 1, count: 2 });
    await sendAndWait(chat, page, 'and bigger');
    expect(userTexts(rigs.server.requests[3]!)).toEqual(['first question', 'make it blue', 'and bigger']);
    expect(assistantTexts(rigs.server.requests[3]!)).toEqual(['first answer', 'it is blue']);

    // A resume shows the branch chosen last.
    const id = (page.store.named('session').at(-1) as { id: string }).id;
    await page.bus.request('session.new', {});
    await page.bus.request('sessions.resume', { id });
    await settle();
    expect(shown(page).at(-1)).toEqual(['assistant', 'bigger blue']);
    expect(page.store.messages[2]!.branch).toEqual({ index: 1, count: 2 });
  });

  it('refuses a version that does not exist', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({ turns: [reply.text('only answer')] });
    const page = rig.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    const q = await sendAndWait(rig, page, 'only question');
    await expect(page.bus.request('session.switchBranch', { messageId: q, index: 2 })).rejects.toThrow(/no version 2/);
  });
});

describe('the sessions list actions', () => {
  it('renames, exports and deletes (after confirmation) through the bus', async () => {
    const ui = new RecordingUi();
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' }, { controller: { sessionUi: ui } });
    const chat = rig;
    rigs.server.load({ turns: [reply.text('old answer'), reply.text('new answer')] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await sendAndWait(chat, page, 'the old question');
    const oldId = (page.store.named('session').at(-1) as { id: string }).id;
    await page.bus.request('session.new', {});
    await sendAndWait(chat, page, 'the new question');
    const newId = (page.store.named('session').at(-1) as { id: string }).id;

    // Rename a stored conversation and the one in view (the header hears that one).
    expect(await page.bus.request('sessions.rename', { id: oldId, title: 'Archived idea' })).toEqual({ title: 'Archived idea' });
    expect(await page.bus.request('sessions.rename', { id: newId, title: 'Current work' })).toEqual({ title: 'Current work' });
    await settle();
    expect(page.store.named('session').at(-1)).toEqual({ id: newId, title: 'Current work' });
    const list = await page.bus.request('sessions.list', {});
    expect(list.sessions.map((s) => [s.title, s.messageCount])).toEqual([
      ['Current work', 2],
      ['Archived idea', 2],
    ]);
    expect(list.sessions.every((s) => typeof s.tokens === 'number')).toBe(true);
    expect((await page.bus.request('sessions.list', { query: 'old answer' })).sessions.map((s) => s.id)).toEqual([oldId]);

    await page.bus.request('sessions.export', { id: newId, format: 'markdown' });
    expect(ui.exports[0]!.format).toBe('markdown');
    const md = sessionToMarkdown(ui.exports[0]!.source);
    expect(md).toMatch(/^# Current work\n/);
    expect(md).toContain('the new question');
    expect(md).toContain('new answer');

    // Declined: nothing goes. Confirmed: the one in view is replaced by a new chat, then deleted.
    ui.confirm = false;
    expect(await page.bus.request('sessions.delete', { id: newId })).toEqual({ deleted: false });
    expect(ui.asked).toEqual(['Current work']);
    expect((await page.bus.request('sessions.list', {})).total).toBe(2);
    ui.confirm = true;
    expect(await page.bus.request('sessions.delete', { id: newId })).toEqual({ deleted: true });
    await settle();
    expect(page.store.messages).toEqual([]);
    expect((await page.bus.request('sessions.list', {})).sessions.map((s) => s.id)).toEqual([oldId]);
  });
});

describe('generated titles', () => {
  it('names the conversation with the small model after the first reply, without holding the reply up', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model', smallModel: 'scripted-small' }, { controller: { generateTitles: () => true } });
    const chat = rig;
    rigs.server.load({ turns: [reply.text('Use CSS variables for the palette.'), reply.text('"Dark theme palette."')] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await sendAndWait(chat, page, 'How do I add a dark theme?');
    await until(() => (page.store.named('session').at(-1) as { title: string | null }).title === 'Dark theme palette', 'the generated title');
    const titleRequest = rigs.server.requests[1]!;
    expect(titleRequest.body.model).toBe('scripted-small');
    expect(JSON.stringify(titleRequest.body.messages)).toContain('How do I add a dark theme?');
    const list = await page.bus.request('sessions.list', {});
    expect(list.sessions[0]!.title).toBe('Dark theme palette');
  });

  it('keeps the first prompt as the title when the model fails, and never replaces a title the person set', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' }, { controller: { generateTitles: () => true } });
    const chat = rig;
    rigs.server.load({ turns: [reply.text('answer one'), reply.status(500)] });
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await sendAndWait(chat, page, 'Why is CI red?');
    await until(() => rigs.server.requests.length === 2, 'the title request');
    await until(() => chat.logs.some((l) => l.includes('no generated title')), 'the failure logged');
    expect((await page.bus.request('sessions.list', {})).sessions[0]!.title).toBe('Why is CI red?');
  });
});

describe('long conversations', () => {
  it('open with their recent part, starting at a prompt; "Show all" brings the rest', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    const chat = rig;
    const { SessionStore } = await import('../../../src/core/session/sessionStore');
    const store = new SessionStore({ home: chat.home, workspace: { root: chat.workspace } });
    const s = store.create();
    for (let i = 0; i < 400; i++) {
      s.appendMessage({ role: 'user', content: `question ${i}` });
      s.appendMessage({ role: 'assistant', content: `answer ${i}` });
    }
    s.close();
    const page = chat.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await page.bus.request('sessions.resume', { id: s.id });
    await settle();
    const snap = page.store.named('snapshot').at(-1) as { messages: UiMessage[]; earlierMessages?: number };
    expect(snap.messages.length).toBeLessThanOrEqual(300);
    expect(snap.messages[0]!.role).toBe('user');
    expect(snap.earlierMessages).toBe(800 - snap.messages.length);
    expect(text(snap.messages.at(-1)!)).toBe('answer 399');

    expect(await page.bus.request('session.loadEarlier', {})).toEqual({ shown: snap.earlierMessages });
    await settle();
    const all = page.store.named('snapshot').at(-1) as { messages: UiMessage[]; earlierMessages?: number };
    expect(all.messages).toHaveLength(800);
    expect(all.earlierMessages).toBeUndefined();
    expect(text(all.messages[0]!)).toBe('question 0');
  });
});
