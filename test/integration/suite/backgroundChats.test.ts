/// <reference types="mocha" />
// Conversations that keep running while the person looks at another one, in the real
// extension host: the runs, their session logs, the badge on the Keel view, and an approval
// that waits until the person opens its conversation.
import * as assert from 'node:assert';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { activateKeel, keelHomeForRun, workspaceFolder, workspaceSessionsDir } from './support/keelSetup';

keelHomeForRun();

const logOf = (id: string): string => readFileSync(join(workspaceSessionsDir(), `${id}.jsonl`), 'utf8');

describe('background conversations', () => {
  const chat = useConfiguredChat();

  /** Sends and waits until the model has the request, so the scripted turns are taken in this order. */
  async function sendAndReachModel(text: string): Promise<string> {
    const before = chat.server.requests.length;
    const from = chat.page.events.length;
    const saved = () => chat.page.events.slice(from).find((e) => e.name === 'session' && (e.data as { id: string | null }).id !== null);
    await chat.page.send(text);
    await chat.page.waitFor(() => chat.server.requests.length > before, `the model's request for "${text}"`);
    await chat.page.waitFor(() => saved() !== undefined, 'the saved session');
    return (saved()!.data as { id: string }).id;
  }

  it('A keeps running after New Chat; B runs meanwhile; both finish and each log holds its own answer', async () => {
    chat.server.load({
      turns: [
        { ...reply.text('Alpha answer, streamed slowly.', { chunkSize: 1, delayMs: 60 }), match: { lastUserIncludes: 'question alpha' } },
        { ...reply.text('Beta answer.'), match: { lastUserIncludes: 'question beta' } },
      ],
    });
    const from = chat.page.events.length;
    const a = await sendAndReachModel('question alpha');
    await chat.page.newChat();
    const b = await sendAndReachModel('question beta');
    assert.notStrictEqual(a, b);
    await chat.page.runEnded(from);
    await chat.page.waitFor(() => chat.page.text(chat.page.last('assistant')) === 'Beta answer.', "B's answer in view");
    const listed = await chat.page.bus.request('sessions.list', {});
    assert.strictEqual(listed.sessions.find((s) => s.id === a)?.activity, 'running', 'A still runs once B is done');
    await chat.page.waitFor(() => chat.page.activity[a] === 'finished', 'A finished in the background', 20_000);
    assert.match(logOf(a), /Alpha answer, streamed slowly\./);
    assert.doesNotMatch(logOf(a), /Beta answer/);
    assert.match(logOf(b), /Beta answer\./);
    assert.doesNotMatch(logOf(b), /Alpha answer/);
    assert.strictEqual(chat.server.pendingTurns(), 0);
  });

  it('an approval in a background conversation: badge 1, "waiting for approval" in the list; answered after opening, the run writes the file', async () => {
    const api = await activateKeel();
    const target = join(workspaceFolder(), 'background-note.md');
    rmSync(target, { force: true });
    chat.server.load({
      turns: [
        // The tool call streams slowly so that it arrives after the person moved to a new chat.
        { ...reply.tool('write', { file_path: 'background-note.md', content: 'from the background\n' }, { delayMs: 150 }), match: { lastUserIncludes: 'write the background note' } },
        reply.text('The note is written.', { match: { lastToolResultIncludes: 'Created background-note.md' } }),
      ],
    });
    const a = await sendAndReachModel('write the background note');
    await chat.page.newChat();
    await chat.page.waitFor(() => chat.page.activity[a] === 'approval', 'the background approval');
    assert.deepStrictEqual(await api.testHooks.viewBadge(), { value: 1, tooltip: '1 approval waiting' });
    const listed = await chat.page.bus.request('sessions.list', {});
    assert.strictEqual(listed.sessions.find((s) => s.id === a)?.activity, 'approval');
    assert.strictEqual(existsSync(target), false, 'nothing is written while nobody answers');
    assert.strictEqual(chat.page.approvals.length, 0, 'the page showing the new chat was not asked');

    const from = chat.page.events.length;
    await chat.page.bus.request('sessions.resume', { id: a });
    const asked = await chat.page.nextApproval();
    assert.strictEqual(asked.request.change?.displayPath, 'background-note.md');
    asked.answer({ approved: true, scope: 'once' });
    await chat.page.waitFor(() => chat.page.text(chat.page.last('assistant')) === 'The note is written.', 'the run went on', 20_000);
    await chat.page.waitFor(() => chat.page.events.slice(from).some((e) => e.name === 'state' && !(e.data as { running: boolean }).running), 'the run ended');
    assert.strictEqual(readFileSync(target, 'utf8'), 'from the background\n');
    assert.strictEqual((await api.testHooks.viewBadge())?.value ?? 0, 0, 'the badge goes once nothing waits');
    rmSync(target, { force: true });
  });
});
