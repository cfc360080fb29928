import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

const bashCard = (messages: readonly UiMessage[]) =>
  messages.flatMap((m) => m.parts).find((p): p is ToolCallPart => p.type === 'toolCall' && p.name === 'bash');

describe('a bash card in the chat', () => {
  it('lists what the command changed, survives a reload, and Undo on it puts the files back and marks them', async () => {
    rig = createChatRig({ baseUrl: server.baseURL, model: 'scripted-model', approvalMode: 'yolo' });
    writeFileSync(join(rig.workspace, 'keep.txt'), 'one\r\ntwo\r\n');
    server.load({ turns: [reply.tool('bash', { command: "printf 'one\\r\\nTWO\\r\\nthree\\r\\n' > keep.txt && echo new > new.txt && rm hello.txt" }), reply.text('Done.')] });
    const page = rig.openPage();
    await until(() => page.store.snapshot !== undefined, 'snapshot');
    await page.bus.request('session.send', { text: 'change files' });
    await until(() => !rig!.controller.isRunning, 'run end');
    await settle();
    const card = bashCard(page.store.messages)!;
    expect(card.files?.map((f) => [f.displayPath, f.kind, f.added, f.removed, f.reverted]).sort()).toEqual([
      ['hello.txt', 'deleted', 0, 1, false],
      ['keep.txt', 'modified', 2, 1, false],
      ['new.txt', 'added', 1, 0, false],
    ]);

    // A reloaded page rebuilds the card from the session.
    const reloaded = page.reload();
    await until(() => reloaded.store.snapshot !== undefined, 'snapshot after reload');
    expect(bashCard(reloaded.store.snapshot!.messages)!.files).toEqual(card.files);

    const undone = await reloaded.bus.request('command.undo', { toolCallId: card.toolCallId });
    expect(undone.status).toBe('reverted');
    expect(readFileSync(join(rig.workspace, 'keep.txt'), 'utf8')).toBe('one\r\ntwo\r\n');
    expect(readFileSync(join(rig.workspace, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(rig.workspace, 'new.txt'))).toBe(false);
    await until(() => bashCard(reloaded.store.messages)!.files!.every((f) => f.reverted), 'files marked undone');

    // Resumed from its log, the card still lists the files, as undone.
    const session = reloaded.store.snapshot!.session;
    await reloaded.bus.request('session.new', {});
    await reloaded.bus.request('sessions.resume', { id: session.id! });
    await until(() => bashCard(reloaded.store.messages)?.files !== undefined, 'resumed card');
    expect(bashCard(reloaded.store.messages)!.files!.map((f) => [f.displayPath, f.reverted]).sort()).toEqual([
      ['hello.txt', true],
      ['keep.txt', true],
      ['new.txt', true],
    ]);
  });
});
