import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../../src/core/session/sessionStore';
import { isBusError } from '../../../src/protocol/busError';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { settle, until } from './chatHarness';
import { useChatRig } from './chatSuite';
import type { ChatRig } from './chatHarness';

const rigs = useChatRig();
let rig: ChatRig | undefined;

const SUMMARY = '## Goal\nThe person asked about apples.';

describe('compaction and read-only sessions in the chat controller', () => {
  it('session.compact puts a divider in the view; the page built from events equals the host; the next request carries the summary', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({
      turns: [
        reply.text('Apples are red.', { match: { lastUserIncludes: 'apples-q' } }),
        reply.text(SUMMARY, { match: { systemIncludes: 'You summarize a conversation' } }),
        reply.text('Pears too.', { match: { lastUserIncludes: 'pears-q' } }),
      ],
    });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    expect(await page.bus.request('session.compact', {})).toEqual({ status: 'nothing', message: 'There is nothing to compact yet.' });

    await page.bus.request('session.send', { text: 'apples-q' });
    await until(() => !rig!.controller.isRunning && rig!.controller.messages().length === 2, 'first answer');
    const result = await page.bus.request('session.compact', {});
    expect(result).toEqual({ status: 'compacted', message: '2 messages were summarized.' });
    await settle();
    expect(page.store.messages).toEqual(rig.controller.messages());
    expect(page.store.messages.at(-1)).toMatchObject({
      role: 'system',
      status: 'done',
      parts: [{ type: 'compaction', summary: SUMMARY, compactedMessages: 2, reason: 'manual' }],
    });

    await page.bus.request('session.send', { text: 'pears-q' });
    await until(() => !rig!.controller.isRunning && rig!.controller.messages().length === 5, 'second answer');
    const sent = JSON.stringify(rigs.server.requests[2]!.body.messages);
    expect(sent).toContain('The person asked about apples.');
    expect(sent).not.toContain('apples-q');

    // Resumed from the log, the divider is where it was.
    const id = (page.store.named('session').at(-1) as { id: string }).id;
    await page.bus.request('session.new', {});
    await page.bus.request('sessions.resume', { id });
    await settle();
    expect(page.store.messages.map((m) => m.parts[0]?.type)).toEqual(['text', 'text', 'compaction', 'text', 'text']);
  });

  it('a conversation another process is writing opens read-only: the snapshot says why, sends and /compact are refused', async () => {
    rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({ turns: [] });
    const other = new SessionStore({ home: rig.home, workspace: { root: rig.workspace } });
    const held = other.create();
    held.appendMessage({ role: 'user', content: 'held elsewhere' });
    try {
      const page = rig.openPage();
      await until(() => page.store.snapshot !== undefined, 'snapshot');
      const resumed = await page.bus.request('sessions.resume', { id: held.id });
      expect(resumed.session.readOnly).toMatch(/open for writing in this window/);
      await settle();
      expect(page.store.snapshot!.session.readOnly).toMatch(/open for writing/);
      const sent = page.bus.request('session.send', { text: 'let me write too' });
      await expect(sent).rejects.toSatisfy((err: unknown) => isBusError(err, 'session_read_only'));
      const compacted = await page.bus.request('session.compact', {});
      expect(compacted.status).toBe('failed');
      expect(compacted.message).toMatch(/read-only in this window/);
      expect(rigs.server.requests).toHaveLength(0);
      expect(held.history()).toEqual([{ role: 'user', content: 'held elsewhere' }]);
      // A new chat leaves read-only mode.
      await page.bus.request('session.new', {});
      await settle();
      expect(page.store.snapshot!.session.readOnly).toBeUndefined();
    } finally {
      held.close();
    }
  });
});
