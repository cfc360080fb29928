/// <reference types="mocha" />
// File changes reviewed as diffs in the real VS Code: the diff editor opens on its own, the
// person accepts or rejects from the chat, the editor commands or hunk by hunk, may edit the
// proposal first, and what reaches the disk is exactly what they accepted.
import * as assert from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { ChatPage } from './support/chatPage';
import type { AskedApproval } from './support/chatPage';
import { closeAllEditors, diffTabOf, keelDiffTabs, proposalDocument, waitForDiffTab, waitForProposalTab } from './support/diffTabs';
import { MODEL, activateKeel, keelHomeForRun, setApprovalMode, setModelSettings, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';
import { until } from './support/waiting';

keelHomeForRun();

const DIR = 'diff-review';
const lines = (...l: string[]): string => l.map((x) => `${x}\n`).join('');
const TEN = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten');

describe('approving edits as diffs', () => {
  let server: ScriptedServer;
  let page: ChatPage;
  let folder: string;

  const file = (name: string): string => join(folder, DIR, name);
  const put = (name: string, content: string | Buffer): string => {
    mkdirSync(join(folder, DIR), { recursive: true });
    writeFileSync(file(name), content);
    return file(name);
  };

  /** Sets keel.approvalMode and waits until the chat follows it (the host has seen the change). */
  async function approvalMode(mode: 'autoEdit' | 'yolo'): Promise<void> {
    await setApprovalMode(mode);
    await page.waitFor(() => page.run?.approvalMode === mode, `approval mode ${mode} in the chat`);
  }

  /** On a timeout, what the page held (tool cards, approvals, run state) goes into the failure. */
  function explain(err: unknown): never {
    const calls = page.toolCalls().map((c) => `${c.name}:${c.state}`);
    throw new Error(`${String(err)}; tool calls ${calls.join(', ')}; run ${JSON.stringify(page.run)}; errors ${JSON.stringify(page.errors)}`);
  }

  /** Sends a prompt and returns the first approval it leads to, with the event index to wait from. */
  async function ask(prompt: string): Promise<{ asked: AskedApproval; from: number }> {
    const from = page.events.length;
    await page.send(prompt);
    return { asked: await page.nextApproval(), from };
  }

  before(async () => {
    const api = await activateKeel();
    folder = workspaceFolder();
    server = await startScriptedServer();
    await setApprovalMode(undefined);
    await setModelSettings({ baseUrl: server.baseURL, model: MODEL });
    page = await ChatPage.open(api);
    await page.waitFor(() => page.config?.modelConfigured === true, 'a configured model');
  });

  beforeEach(async () => {
    await page.newChat();
  });

  afterEach(async () => {
    await closeAllEditors();
    await setApprovalMode(undefined);
    await vscode.workspace.getConfiguration('keel').update('diff.reveal', undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    page?.close();
    await setModelSettings(undefined);
    await server?.close();
    rmSync(join(folder, DIR), { recursive: true, force: true });
    rmSync(join(folder, 'AGENTS.md'), { force: true });
  });

  it('opens the diff by itself (current left, proposal right) and Accept in the editor writes the proposal', async () => {
    put('accept.txt', TEN);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/accept.txt` }),
        reply.tool('edit', { file_path: `${DIR}/accept.txt`, old_string: 'three', new_string: 'THREE' }),
        reply.text('edited'),
      ],
    });
    const { asked, from } = await ask('shout three');
    const diff = await waitForDiffTab(asked.request.id);
    assert.strictEqual(diff.tab.label, 'accept.txt (Keel: proposed)');
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).getText(), TEN);
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.proposed)).getText(), TEN.replace('three', 'THREE'));
    assert.strictEqual(readFileSync(file('accept.txt'), 'utf8'), TEN, 'nothing is written before the decision');

    assert.strictEqual(await vscode.commands.executeCommand('keel.acceptChange', asked.request.id), true);
    await page.runEnded(from);
    assert.strictEqual(readFileSync(file('accept.txt'), 'utf8'), TEN.replace('three', 'THREE'));
    await until(() => diffTabOf(asked.request.id) === undefined, 'the decided diff to close');
    assert.match(lastToolResult(request(server, 2)), /Edited diff-review\/accept\.txt/);
  });

  it("shows a TypeScript proposal in Keel's highlight-only TypeScript, never as a document for the TypeScript server", async () => {
    const source = lines('export function three(): number {', '  return 3;', '}');
    put('three.ts', source);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/three.ts` }),
        reply.tool('edit', { file_path: `${DIR}/three.ts`, old_string: 'return 3;', new_string: 'return 3 as const;' }),
        reply.text('edited'),
      ],
    });
    const { asked, from } = await ask('make it const');
    const diff = await waitForDiffTab(asked.request.id);
    const sides = await Promise.all([diff.original, diff.proposed].map((uri) => vscode.workspace.openTextDocument(uri)));
    assert.deepStrictEqual(sides.map((d) => d.languageId), ['keel-proposal-typescript', 'keel-proposal-typescript']);
    assert.strictEqual(sides[1]!.getText(), source.replace('return 3;', 'return 3 as const;'));
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.scheme.startsWith('keel-') && d.languageId === 'typescript'));

    assert.strictEqual(await vscode.commands.executeCommand('keel.acceptChange', asked.request.id), true);
    await page.runEnded(from);
    assert.strictEqual(readFileSync(file('three.ts'), 'utf8'), source.replace('return 3;', 'return 3 as const;'));
  });

  it('Reject with a reason leaves the disk byte for byte as it was and tells the model why', async () => {
    const original = Buffer.from('keep me\r\nexactly\r\n');
    put('reject.txt', original);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/reject.txt` }),
        reply.tool('write', { file_path: `${DIR}/reject.txt`, content: 'replaced\n' }),
        reply.text('ok'),
      ],
    });
    const { asked, from } = await ask('replace it');
    await waitForDiffTab(asked.request.id);
    await vscode.commands.executeCommand('keel.rejectChange', asked.request.id, 'the old text is right');
    await page.runEnded(from);
    assert.ok(readFileSync(file('reject.txt')).equals(original), 'the file is untouched');
    const told = lastToolResult(request(server, 2));
    assert.match(told, /declined/);
    assert.match(told, /the old text is right/);
  });

  it("tells the model when VS Code's save actions changed the accepted file", async () => {
    // Trimming trailing whitespace is a save participant built into VS Code, like format on save.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('trimTrailingWhitespace', true, vscode.ConfigurationTarget.Global);
    try {
      put('trimmed.txt', TEN);
      server.load({
        turns: [
          reply.tool('read', { file_path: `${DIR}/trimmed.txt` }),
          reply.tool('edit', { file_path: `${DIR}/trimmed.txt`, old_string: 'two\n', new_string: 'two   \n' }),
          reply.text('ok'),
        ],
      });
      const { asked, from } = await ask('pad two');
      asked.answer({ approved: true, scope: 'once' });
      await page.runEnded(from);
      assert.strictEqual(readFileSync(file('trimmed.txt'), 'utf8'), TEN, 'the save trimmed the padding again');
      assert.match(lastToolResult(request(server, 2)), /save actions .* changed diff-review\/trimmed\.txt/);
    } finally {
      await files.update('trimTrailingWhitespace', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('what the person typed into the proposal is applied, and the model gets a diff of their edits', async () => {
    put('edited.txt', TEN);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/edited.txt` }),
        reply.tool('edit', { file_path: `${DIR}/edited.txt`, old_string: 'five', new_string: 'FIVE' }),
        reply.text('noted'),
      ],
    });
    const { asked, from } = await ask('shout five');
    const proposal = await proposalDocument(asked.request.id);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(proposal.uri, new vscode.Range(8, 0, 8, 4), 'nine, by hand');
    assert.ok(await vscode.workspace.applyEdit(edit));
    // Accepted from the chat card: the same change, with the person's edit.
    asked.answer({ approved: true, scope: 'once' });
    await page.runEnded(from);
    const expected = TEN.replace('five', 'FIVE').replace('nine', 'nine, by hand');
    assert.strictEqual(readFileSync(file('edited.txt'), 'utf8'), expected);
    const told = lastToolResult(request(server, 2));
    assert.match(told, /edited your proposal/);
    assert.match(told, /-nine\n\+nine, by hand/);
  });

  it('hunk by hunk: only the accepted hunks are applied and the model hears which were rejected', async () => {
    put('hunks.txt', TEN);
    const proposed = TEN.replace('two', 'TWO').replace('nine', 'NINE');
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/hunks.txt` }),
        reply.tool('write', { file_path: `${DIR}/hunks.txt`, content: proposed }),
        reply.text('partly applied'),
      ],
    });
    const { asked, from } = await ask('shout two and nine');
    const proposal = await proposalDocument(asked.request.id);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposal.uri);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.some((t) => t.includes('Accept hunk 1')) && titles.some((t) => t.includes('Reject hunk 2')), titles.join(' | '));
    const rejectSecond = lenses.find((l) => l.command?.title.includes('Reject hunk 2'))!.command!;
    await vscode.commands.executeCommand(rejectSecond.command, ...(rejectSecond.arguments ?? []));
    assert.strictEqual(proposal.getText(), TEN.replace('two', 'TWO'), 'the rejected hunk left the proposal');
    const again = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposal.uri);
    const acceptFirst = again.find((l) => l.command?.title.includes('Accept hunk 1'))!.command!;
    // Deciding the last hunk settles the change.
    await vscode.commands.executeCommand(acceptFirst.command, ...(acceptFirst.arguments ?? []));
    await page.runEnded(from);
    assert.strictEqual(readFileSync(file('hunks.txt'), 'utf8'), TEN.replace('two', 'TWO'));
    const told = lastToolResult(request(server, 2));
    assert.match(told, /rejected 1 of its 2 hunks/);
    assert.match(told, /\+NINE/);
  });

  it('a file changed on disk after the agent read it is not overwritten: the model is asked to re-read', async () => {
    put('stale.txt', TEN);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/stale.txt` }),
        reply.tool('edit', { file_path: `${DIR}/stale.txt`, old_string: 'one', new_string: 'ONE' }),
        reply.text('will re-read'),
      ],
    });
    const { asked, from } = await ask('shout one');
    await waitForDiffTab(asked.request.id);
    writeFileSync(file('stale.txt'), `${TEN}eleven\n`);
    await vscode.commands.executeCommand('keel.acceptChange', asked.request.id);
    await page.runEnded(from);
    assert.strictEqual(readFileSync(file('stale.txt'), 'utf8'), `${TEN}eleven\n`, 'the newer content is kept');
    const call = page.toolCalls().find((c) => c.toolCallId === asked.request.toolCallId);
    assert.strictEqual(call?.state, 'error');
    assert.match(lastToolResult(request(server, 2)), /changed on disk since it was last read\. Read it again/);
  });

  it('an open editor with unsaved changes is respected: nothing is written over them', async () => {
    const path = put('dirty.txt', TEN);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/dirty.txt` }),
        reply.tool('edit', { file_path: `${DIR}/dirty.txt`, old_string: 'ten', new_string: 'TEN' }),
        reply.text('told'),
      ],
    });
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path));
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// my unsaved note\n'));
    const { asked, from } = await ask('shout ten');
    asked.answer({ approved: true, scope: 'once' });
    await page.runEnded(from);
    assert.strictEqual(readFileSync(path, 'utf8'), TEN, 'the disk is unchanged');
    assert.strictEqual(editor.document.getText(), `// my unsaved note\n${TEN}`, 'the unsaved edit is still in the editor');
    assert.ok(editor.document.isDirty);
    assert.match(lastToolResult(request(server, 2)), /unsaved changes in an editor; nothing was written/);
  });

  it('keeps CRLF line endings and the BOM of the original, also for a partly accepted change', async () => {
    const crlf = (...l: string[]): string => l.map((x) => `${x}\r\n`).join('');
    const original = `\uFEFF${crlf('alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta')}`;
    put('windows.cs', Buffer.from(original, 'utf8'));
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/windows.cs` }),
        reply.tool('write', { file_path: `${DIR}/windows.cs`, content: lines('ALPHA', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'THETA', 'iota') }),
        reply.text('done'),
      ],
    });
    const { asked, from } = await ask('rewrite');
    const proposal = await proposalDocument(asked.request.id);
    assert.strictEqual(proposal.eol, vscode.EndOfLine.CRLF, 'the proposal is shown with the file’s line endings');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposal.uri);
    const reject = lenses.find((l) => l.command?.title.includes('Reject hunk 1'))!.command!;
    await vscode.commands.executeCommand(reject.command, ...(reject.arguments ?? []));
    await vscode.commands.executeCommand('keel.acceptChange', asked.request.id);
    await page.runEnded(from);
    const bytes = readFileSync(file('windows.cs'));
    assert.deepStrictEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM is kept');
    assert.strictEqual(bytes.toString('utf8'), `\uFEFF${crlf('alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'THETA', 'iota')}`);
  });

  it('a new file opens as its proposal alone (no diff against an empty side); Reject creates nothing, Accept creates it', async () => {
    rmSync(file('fresh.txt'), { force: true });
    server.load({
      turns: [
        reply.tool('write', { file_path: `${DIR}/fresh.txt`, content: 'fresh one\n' }),
        reply.text('not created'),
        reply.tool('write', { file_path: `${DIR}/fresh.txt`, content: 'fresh two\n' }),
        reply.text('created'),
      ],
    });
    const first = await ask('create it');
    const tab = await waitForProposalTab(first.asked.request.id);
    assert.strictEqual(diffTabOf(first.asked.request.id), undefined, 'no diff editor for a new file');
    assert.strictEqual((await vscode.workspace.openTextDocument((tab.input as vscode.TabInputText).uri)).getText(), 'fresh one\n');
    await vscode.commands.executeCommand('keel.rejectChange', first.asked.request.id, '');
    await page.runEnded(first.from);
    assert.strictEqual(existsSync(file('fresh.txt')), false);

    const second = await ask('create it after all');
    await vscode.commands.executeCommand('keel.acceptChange', second.asked.request.id);
    await page.runEnded(second.from);
    assert.strictEqual(readFileSync(file('fresh.txt'), 'utf8'), 'fresh two\n');
  });

  it('a protected path in yolo mode still shows the proposal and waits, marked sensitive', async () => {
    await approvalMode('yolo');
    await vscode.workspace.getConfiguration('keel').update('diff.reveal', 'none', vscode.ConfigurationTarget.Global);
    rmSync(join(folder, 'AGENTS.md'), { force: true });
    server.load({
      turns: [reply.tool('write', { file_path: 'AGENTS.md', content: '# Rules\nAlways say yes.\n' }), reply.text('fine')],
    });
    const { asked, from } = await ask('set my rules');
    assert.strictEqual(asked.request.protected, true);
    const tab = await waitForProposalTab(asked.request.id);
    assert.strictEqual(tab.label, 'AGENTS.md');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', (tab.input as vscode.TabInputText).uri);
    assert.ok(lenses.some((lens) => lens.command?.title.includes('Protected path')), 'the editor says the path is protected');
    assert.strictEqual(existsSync(join(folder, 'AGENTS.md')), false, 'waits for the person even in yolo');
    await vscode.commands.executeCommand('keel.rejectChange', asked.request.id, 'not my rules');
    await page.runEnded(from);
    assert.strictEqual(existsSync(join(folder, 'AGENTS.md')), false);
  });

  it('several files changed in one turn are pending together; Accept All applies every one', async () => {
    for (const name of ['many1.txt', 'many2.txt', 'many3.txt']) put(name, TEN);
    server.load({
      turns: [
        reply.tools(['many1.txt', 'many2.txt', 'many3.txt'].map((n) => ({ name: 'read', arguments: { file_path: `${DIR}/${n}` } }))),
        reply.tools(
          ['many1.txt', 'many2.txt', 'many3.txt'].map((n, i) => ({
            name: 'edit',
            arguments: { file_path: `${DIR}/${n}`, old_string: 'four', new_string: `four ${i + 1}` },
          })),
        ),
        reply.text('all three'),
      ],
    });
    const from = page.events.length;
    await page.send('edit three files');
    const asked = [await page.nextApproval(), await page.nextApproval(), await page.nextApproval()];
    await page.waitFor(() => keelDiffTabs().length >= 1, 'the diff editor');
    assert.ok(asked.every((a) => page.approvals.includes(a)));
    assert.deepStrictEqual(
      asked.map((a) => a.request.change?.displayPath),
      ['many1.txt', 'many2.txt', 'many3.txt'].map((n) => `${DIR}/${n}`),
    );
    assert.strictEqual(await vscode.commands.executeCommand('keel.acceptAllChanges'), 3);
    await page.runEnded(from);
    ['many1.txt', 'many2.txt', 'many3.txt'].forEach((n, i) => assert.strictEqual(readFileSync(file(n), 'utf8'), TEN.replace('four', `four ${i + 1}`)));
  });

  it('an applied change can be undone from the chat, and a later edit by the person is not lost without asking', async () => {
    put('undo.txt', TEN);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/undo.txt` }),
        reply.tool('edit', { file_path: `${DIR}/undo.txt`, old_string: 'six', new_string: 'SIX' }),
        reply.text('done'),
      ],
    });
    const { asked, from } = await ask('shout six');
    await vscode.commands.executeCommand('keel.acceptChange', asked.request.id);
    await page.runEnded(from);
    const change = page.toolCalls().find((c) => c.toolCallId === asked.request.toolCallId)?.change;
    assert.ok(change, 'the tool card carries the applied change');
    assert.deepStrictEqual({ ...change, id: undefined }, { id: undefined, displayPath: `${DIR}/undo.txt`, kind: 'edit', undoable: true, reverted: false });

    writeFileSync(file('undo.txt'), TEN.replace('six', 'SIX').replace('one', 'mine'));
    const refused = await page.bus.request('change.undo', { changeId: change.id });
    assert.strictEqual(refused.status, 'conflict');
    assert.match(refused.message, /changed since/);
    assert.strictEqual(readFileSync(file('undo.txt'), 'utf8'), TEN.replace('six', 'SIX').replace('one', 'mine'));

    const forced = await page.bus.request('change.undo', { changeId: change.id, force: true });
    assert.strictEqual(forced.status, 'reverted');
    assert.strictEqual(readFileSync(file('undo.txt'), 'utf8'), TEN);
    await page.waitFor(() => page.toolCalls().find((c) => c.toolCallId === asked.request.toolCallId)?.change?.reverted === true, 'the card to show the change undone');
  });

  it('"Restore files to here" puts back every file Keel changed from that message on', async () => {
    await approvalMode('autoEdit');
    put('restoreA.txt', TEN);
    put('restoreB.txt', TEN);
    server.load({
      turns: [
        reply.tool('read', { file_path: `${DIR}/restoreA.txt` }),
        reply.tool('edit', { file_path: `${DIR}/restoreA.txt`, old_string: 'one', new_string: 'first' }),
        reply.text('first turn'),
        reply.tools([
          { name: 'read', arguments: { file_path: `${DIR}/restoreB.txt` } },
          { name: 'write', arguments: { file_path: `${DIR}/restoreC.txt`, content: 'new\n' } },
        ]),
        reply.tool('edit', { file_path: `${DIR}/restoreB.txt`, old_string: 'two', new_string: 'second' }),
        reply.tool('edit', { file_path: `${DIR}/restoreA.txt`, old_string: 'first', new_string: 'first again' }),
        reply.text('second turn'),
      ],
    });
    await page.sendAndSettle('first').catch(explain);
    assert.strictEqual(keelDiffTabs().length, 0, 'autoEdit applies without opening diffs');
    const { messageId } = await page.sendAndSettle('second').catch(explain);
    assert.strictEqual(readFileSync(file('restoreA.txt'), 'utf8'), TEN.replace('one', 'first again'));
    assert.strictEqual(readFileSync(file('restoreC.txt'), 'utf8'), 'new\n');

    const restored = await page.bus.request('changes.restore', { messageId });
    assert.strictEqual(restored.status, 'reverted', restored.message);
    assert.strictEqual(readFileSync(file('restoreA.txt'), 'utf8'), TEN.replace('one', 'first'), 'back to how the first turn left it');
    assert.strictEqual(readFileSync(file('restoreB.txt'), 'utf8'), TEN);
    assert.strictEqual(existsSync(file('restoreC.txt')), false, 'a file created since is removed');
  });

  it('cancelling the run rejects the pending changes and writes nothing', async () => {
    put('cancel1.txt', TEN);
    put('cancel2.txt', TEN);
    server.load({
      turns: [
        reply.tools(['cancel1.txt', 'cancel2.txt'].map((n) => ({ name: 'read', arguments: { file_path: `${DIR}/${n}` } }))),
        reply.tools(['cancel1.txt', 'cancel2.txt'].map((n) => ({ name: 'write', arguments: { file_path: `${DIR}/${n}`, content: 'gone\n' } }))),
      ],
      fallback: { text: 'stopped' },
    });
    const from = page.events.length;
    await page.send('overwrite both');
    await page.nextApproval();
    await page.nextApproval();
    await page.waitFor(() => keelDiffTabs().length >= 1, 'the diff editors');
    await page.bus.request('session.cancel', {});
    await page.runEnded(from);
    assert.strictEqual(readFileSync(file('cancel1.txt'), 'utf8'), TEN);
    assert.strictEqual(readFileSync(file('cancel2.txt'), 'utf8'), TEN);
    await until(() => keelDiffTabs().length === 0, 'the diffs of the rejected changes to close');
  });
});
