import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { loggedRecords, until } from './chatHarness';
import { useChatRig } from './chatSuite';

const rigs = useChatRig();

describe('one id per message', () => {
  it('the id session.send returns is the id the session log keeps, and edit-and-resend takes it after a reload', async () => {
    const rig = rigs.open({ baseUrl: rigs.server.baseURL, model: 'scripted-model' });
    rigs.server.load({ turns: [reply.text('first answer'), reply.text('second answer')] });
    const page = rig.openPage();
    await until(() => page.store.snapshot?.config.modelConfigured === true, 'configured snapshot');
    const { messageId } = await page.bus.request('session.send', { text: 'the first prompt' });
    await until(() => !rig.controller.isRunning && page.store.messages.at(-1)?.status === 'done', 'the first answer');

    const records = loggedRecords<{ type: string; id?: string; message?: { role: string } }>(rig, page);
    expect(records.find((r) => r.type === 'message' && r.message?.role === 'user')?.id).toBe(messageId);

    const reloaded = page.reload();
    await until(() => reloaded.store.snapshot !== undefined, 'the snapshot after the reload');
    expect(reloaded.store.messages[0]!.id).toBe(messageId);
    await reloaded.bus.request('session.editAndResend', { messageId, text: 'the edited prompt' });
    await until(() => !rig.controller.isRunning && reloaded.store.messages.at(-1)?.status === 'done', 'the answer to the edit');
    expect(reloaded.store.messages.find((m) => m.role === 'user')?.branch).toEqual({ index: 2, count: 2 });
  });
});
