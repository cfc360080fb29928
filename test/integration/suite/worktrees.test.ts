/// <reference types="mocha" />
// Worktree conversations in the real VS Code: "New Chat in Worktree" makes a git worktree on
// its own branch, the scripted model edits there and never in the person's checkout, Review
// shows the worktree's diff in the diff editor, accepting one hunk writes exactly that hunk
// into the checkout, and Discard takes the worktree away.
import * as assert from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { SessionInfo } from '../../../src/protocol/sessionState';
import type { Worktree } from '../../../src/core/worktrees/gitWorktree';
import type { KeelTestApi } from '../../../src/vscode/testHooks';
import { ChatPage } from './support/chatPage';
import { closeAllEditors, proposalDocument } from './support/diffTabs';
import { EXTENSION_ID, MODEL, activateKeel, keelHomeForRun, setApprovalMode, setModelSettings, workspaceFolder, workspaceSessionsDir } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';
import { until } from './support/waiting';

keelHomeForRun();
const run = promisify(execFile);

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.invalid', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.invalid' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8' });

describe('conversations in git worktrees', () => {
  let api: KeelTestApi;
  let server: ScriptedServer;
  let page: ChatPage;
  let folder: string;
  let math: Buffer;
  const asked: string[] = [];

  /** What the view shows as the conversation now: the last snapshot's session, then the session events after it. */
  function shownSession(): SessionInfo | undefined {
    let shown: SessionInfo | undefined;
    for (const e of page.events) {
      if (e.name === 'snapshot') shown = (e.data as { session: SessionInfo }).session;
      if (e.name === 'session') shown = e.data as SessionInfo;
    }
    return shown;
  }

  before(async () => {
    api = await activateKeel();
    folder = workspaceFolder();
    // The rig copies the sample workspace without git: this suite makes it a repository.
    git(folder, 'init', '-q');
    git(folder, 'add', '-A');
    git(folder, 'commit', '-q', '-m', 'the sample');
    math = readFileSync(join(folder, 'src', 'math.ts'));
    server = await startScriptedServer();
    await setApprovalMode('autoEdit');
    await setModelSettings({ baseUrl: server.baseURL, model: MODEL });
    await api.testHooks.setWorktreePrompts({
      discard: async (wt) => (asked.push(`discard ${wt.branch}`), 'folderAndBranch'),
      afterDelete: async () => undefined,
      loseUncommitted: async (_wt, files) => (asked.push(`lose ${files.join(',')}`), true),
    });
    page = await ChatPage.open(api);
    await page.waitFor(() => page.config?.modelConfigured === true, 'a configured model');
  });

  after(async () => {
    page?.close();
    await closeAllEditors();
    await setApprovalMode(undefined);
    await setModelSettings(undefined);
    await server?.close();
    rmSync(join(folder, '.git'), { recursive: true, force: true });
    // Other suites share the workspace: the hunk applied to the checkout goes back.
    if (math) writeFileSync(join(folder, 'src', 'math.ts'), math);
  });

  it('works in its own worktree, reviews into the checkout hunk by hunk, and Discard removes it', async () => {
    const from = page.events.length;
    const wt = await vscode.commands.executeCommand<Worktree>('keel.newChatInWorktree', 'itest');
    assert.ok(wt, 'the command made a worktree');
    assert.strictEqual(wt.branch, 'keel/itest');
    assert.ok(!wt.path.startsWith(folder), `the worktree lies outside the workspace: ${wt.path}`);
    assert.strictEqual(readFileSync(join(wt.path, 'src', 'math.ts')).toString(), math.toString());
    await page.waitFor(() => page.events.slice(from).some((e) => e.name === 'snapshot') && shownSession()?.branch === 'keel/itest', 'the branch on the new conversation');
    assert.strictEqual((await api.testHooks.contextKeys())['keel.inWorktree'], true, 'the worktree commands show in the palette');

    const edited = math
      .toString()
      .replace('export function sum(values: number[]): number {', 'export function sum(values: readonly number[]): number {')
      .replace("throw new Error('average of an empty list')", "throw new RangeError('average of an empty list')");
    server.load({
      turns: [
        reply.tool('read', { file_path: 'src/math.ts' }),
        reply.tool('write', { file_path: 'src/math.ts', content: edited }),
        reply.text('done'),
      ],
    });
    await page.sendAndSettle('make sum take a readonly array and average throw a RangeError');
    assert.strictEqual(readFileSync(join(wt.path, 'src', 'math.ts'), 'utf8'), edited, 'the agent wrote in the worktree');
    assert.ok(readFileSync(join(folder, 'src', 'math.ts')).equals(math), "the person's checkout is unchanged");
    assert.strictEqual(shownSession()?.branch, 'keel/itest', 'the branch stays on the conversation once it is saved');

    // The conversation is the workspace's, and its log records the worktree.
    const id = shownSession()?.id;
    assert.ok(id, 'the conversation was saved');
    const listed = await page.bus.request('sessions.list', {});
    assert.ok(listed.sessions.some((s) => s.id === id), "listed in the workspace's sessions");
    const log = readdirSync(workspaceSessionsDir()).find((f) => f.startsWith(id) && f.endsWith('.jsonl'));
    assert.ok(log, 'the log is in the workspace sessions folder');
    assert.match(readFileSync(join(workspaceSessionsDir(), log), 'utf8'), /"key":"worktree".*"branch":"keel\/itest"/);

    const ids = await vscode.commands.executeCommand<string[]>('keel.reviewWorktreeChanges', 'src/math.ts');
    assert.strictEqual(ids?.length, 1, 'one diff opened');
    const proposal = await proposalDocument(ids[0]!);
    assert.deepStrictEqual(await vscode.commands.executeCommand<string[]>('keel.reviewWorktreeChanges', 'src/math.ts'), ids, 'asked again, the open review comes forward');
    assert.strictEqual(proposal.getText(), edited);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposal.uri);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.some((t) => t.includes('Accept hunk 1')) && titles.some((t) => t.includes('Reject hunk 2')), titles.join(' | '));
    const rejectSecond = lenses.find((l) => l.command?.title.includes('Reject hunk 2'))!.command!;
    await vscode.commands.executeCommand(rejectSecond.command, ...(rejectSecond.arguments ?? []));
    assert.ok(readFileSync(join(folder, 'src', 'math.ts')).equals(math), 'nothing is written before the last hunk is decided');
    const again = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposal.uri);
    const acceptFirst = again.find((l) => l.command?.title.includes('Accept hunk 1'))!.command!;
    await vscode.commands.executeCommand(acceptFirst.command, ...(acceptFirst.arguments ?? []));
    const onlyFirst = math.toString().replace('export function sum(values: number[]): number {', 'export function sum(values: readonly number[]): number {');
    await until(() => readFileSync(join(folder, 'src', 'math.ts'), 'utf8') !== math.toString(), 'the accepted hunk in the checkout');
    assert.ok(readFileSync(join(folder, 'src', 'math.ts')).equals(Buffer.from(onlyFirst)), 'exactly the accepted hunk was written');
    assert.strictEqual(readFileSync(join(wt.path, 'src', 'math.ts'), 'utf8'), edited, 'the worktree keeps its own version');

    assert.strictEqual(await vscode.commands.executeCommand('keel.discardWorktree'), true);
    assert.deepStrictEqual(asked, ['discard keel/itest', 'lose src/math.ts']);
    assert.ok(!existsSync(wt.path), 'the worktree folder is gone');
    assert.ok(!git(folder, 'branch', '--list', 'keel/itest').trim(), 'the branch is gone (ticked)');
    await page.waitFor(() => shownSession()?.branch === undefined && shownSession()?.id === null, 'a new conversation in the workspace');
    assert.strictEqual((await api.testHooks.contextKeys())['keel.inWorktree'], false, 'and hide again');
  });

  it('two worktree conversations keep their own files, never reach the checkout, and each resumes into its worktree', async () => {
    const notes = (root: string): string | undefined => (existsSync(join(root, 'notes.md')) ? readFileSync(join(root, 'notes.md'), 'utf8') : undefined);
    const a = await vscode.commands.executeCommand<Worktree>('keel.newChatInWorktree', 'two-a');
    await page.waitFor(() => shownSession()?.branch === 'keel/two-a', 'the branch of A');
    server.load({ turns: [reply.tool('write', { file_path: 'notes.md', content: 'from A\n' }), reply.text('A done')] });
    await page.sendAndSettle('write the notes as A');
    const idA = shownSession()?.id;
    assert.ok(idA);

    // B goes where the person's own setting says.
    const chosenFolder = mkdtempSync(join(tmpdir(), 'keel-wt-folder-'));
    await vscode.workspace.getConfiguration('keel').update('worktrees.folder', chosenFolder, vscode.ConfigurationTarget.Global);
    let b: Worktree;
    try {
      b = await vscode.commands.executeCommand<Worktree>('keel.newChatInWorktree', 'two-b');
    } finally {
      await vscode.workspace.getConfiguration('keel').update('worktrees.folder', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.ok(b.path.startsWith(realpathSync(chosenFolder)) || b.path.startsWith(chosenFolder), `B is under keel.worktrees.folder: ${b.path}`);
    await page.waitFor(() => shownSession()?.branch === 'keel/two-b', 'the branch of B');
    const checkoutMath = join(folder, 'src', 'math.ts');
    server.load({
      turns: [
        reply.tool('write', { file_path: 'notes.md', content: 'from B\n' }),
        reply.tool('read', { file_path: checkoutMath }),
        reply.text('B done'),
      ],
    });
    await page.sendAndSettle('write the notes as B, then read the checkout');
    const refused = lastToolResult(request(server, 2));
    assert.doesNotMatch(refused, /export function sum/, 'the checkout is outside a worktree conversation');
    assert.match(refused, /outside/i);
    assert.strictEqual(notes(a.path), 'from A\n');
    assert.strictEqual(notes(b.path), 'from B\n');
    assert.strictEqual(notes(folder), undefined, "the person's checkout has no notes");

    // The person made their own notes.md meanwhile: B's is not offered over it, and nothing is written.
    writeFileSync(join(folder, 'notes.md'), 'mine\n');
    try {
      assert.deepStrictEqual(await vscode.commands.executeCommand<string[]>('keel.reviewWorktreeChanges', 'notes.md'), []);
      assert.strictEqual(notes(folder), 'mine\n');
      assert.ok(api.testHooks.logLines().some((l) => l.includes('notes.md changed in the checkout since the base')));
    } finally {
      rmSync(join(folder, 'notes.md'));
    }

    await page.bus.request('sessions.resume', { id: idA });
    await page.waitFor(() => shownSession()?.id === idA && shownSession()?.branch === 'keel/two-a', 'A resumed with its branch');
    server.load({
      turns: [reply.tool('read', { file_path: 'notes.md' }), reply.tool('write', { file_path: 'notes.md', content: 'from A again\n' }), reply.text('again')],
    });
    await page.sendAndSettle('once more as A');
    assert.match(lastToolResult(request(server, 1)), /from A/, 'A reads its own notes');
    assert.strictEqual(notes(a.path), 'from A again\n', 'the resumed conversation works in its own worktree');
    assert.strictEqual(notes(b.path), 'from B\n');
    assert.strictEqual(notes(folder), undefined);

    // Keep branch: the folder goes (its uncommitted notes after a yes), the branch stays for a merge.
    asked.length = 0;
    assert.strictEqual(await vscode.commands.executeCommand('keel.keepWorktreeBranch'), true);
    assert.deepStrictEqual(asked, ['lose notes.md']);
    assert.ok(!existsSync(a.path), "A's folder is gone");
    assert.ok(git(folder, 'branch', '--list', 'keel/two-a').trim(), "A's branch stays");
    const idB = (await page.bus.request('sessions.list', {})).sessions.find((s) => s.title.includes('as B'))?.id;
    assert.ok(idB);
    await page.bus.request('sessions.resume', { id: idB });
    await page.waitFor(() => shownSession()?.branch === 'keel/two-b', 'B resumed');
    assert.strictEqual(await vscode.commands.executeCommand('keel.discardWorktree'), true);
    assert.ok(!existsSync(b.path), "B's worktree is gone");
    rmSync(chosenFolder, { recursive: true, force: true });
  });

  it('two worktree conversations run at once, write the same file name with their own content, and leave the checkout alone', async function () {
    this.timeout(90_000);
    const same = (root: string): string | undefined => (existsSync(join(root, 'same.md')) ? readFileSync(join(root, 'same.md'), 'utf8') : undefined);
    /** Sends and waits until the model has the request and the session is saved; returns its id. */
    async function sendAndReachModel(text: string): Promise<string> {
      const before = server.requests.length;
      const from = page.events.length;
      const saved = () => page.events.slice(from).find((e) => e.name === 'session' && (e.data as SessionInfo).id !== null);
      await page.send(text);
      await page.waitFor(() => server.requests.length > before && saved() !== undefined, `the model's request for "${text}"`);
      return (saved()!.data as SessionInfo).id!;
    }
    server.load({
      turns: [
        // A's write streams slowly, so B starts, writes and ends while A runs; the server answers in order.
        {
          ...reply.tool('write', { file_path: 'same.md', content: 'from A\n' }, { chunkSize: 1, delayMs: 60, match: { lastUserIncludes: 'alpha in A' } }),
          text: 'Writing the notes for conversation A, one letter at a time.',
        },
        { ...reply.tool('write', { file_path: 'same.md', content: 'from B\n' }), match: { lastUserIncludes: 'beta in B' } },
        reply.text('done'),
        reply.text('done'),
      ],
    });
    const a = await vscode.commands.executeCommand<Worktree>('keel.newChatInWorktree', 'par-a');
    const idA = await sendAndReachModel('write same.md as alpha in A');
    const b = await vscode.commands.executeCommand<Worktree>('keel.newChatInWorktree', 'par-b');
    await page.waitFor(() => shownSession()?.branch === 'keel/par-b', 'B in view');
    assert.strictEqual(page.activity[idA], 'running', 'A still runs in the background');
    await sendAndReachModel('write same.md as beta in B');
    await page.waitFor(() => page.text(page.last('assistant')) === 'done', "B's answer", 30_000);
    await page.waitFor(() => page.activity[idA] === 'finished', 'A finished in the background', 30_000);
    assert.strictEqual(same(a.path), 'from A\n');
    assert.strictEqual(same(b.path), 'from B\n');
    assert.strictEqual(same(folder), undefined, "the person's checkout has no same.md");
    assert.strictEqual(server.pendingTurns(), 0);

    assert.strictEqual(await vscode.commands.executeCommand('keel.discardWorktree'), true);
    await page.bus.request('sessions.resume', { id: idA });
    await page.waitFor(() => shownSession()?.branch === 'keel/par-a', 'A resumed');
    assert.strictEqual(await vscode.commands.executeCommand('keel.discardWorktree'), true);
    assert.ok(!existsSync(a.path) && !existsSync(b.path), 'both worktrees are gone');
  });

  it('lists a `keel run --worktree` conversation of this checkout with its branch, and resumes it in its worktree', async function () {
    this.timeout(90_000);
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    server.load({ turns: [reply.tool('write', { file_path: 'cli.md', content: 'from the CLI\n' }), reply.text('CLI done')] });
    const { stdout } = await run(
      process.execPath,
      [join(extension.extensionPath, 'dist', 'cli.js'), 'run', '--cwd', folder, '--base-url', server.baseURL, '--model', MODEL, '--approval', 'autoEdit', '--output', 'stream-json', '--worktree=from-cli', 'write cli.md on the command line'],
      { env: { PATH: process.env.PATH ?? '', KEEL_HOME: process.env.KEEL_HOME }, timeout: 60_000 },
    );
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const made = events[0] as unknown as Worktree;
    const id = String(events.at(-1)!.sessionId);
    assert.strictEqual(made.branch, 'keel/from-cli');
    assert.strictEqual(readFileSync(join(made.path, 'cli.md'), 'utf8'), 'from the CLI\n');
    assert.ok(!existsSync(join(folder, 'cli.md')), "the CLI run left the person's checkout alone");

    const row = (await page.bus.request('sessions.list', {})).sessions.find((s) => s.id === id);
    assert.ok(row, 'the CLI conversation is listed in the window of the checkout');
    assert.strictEqual(row.branch, 'keel/from-cli');
    await page.bus.request('sessions.resume', { id });
    await page.waitFor(() => shownSession()?.id === id && shownSession()?.branch === 'keel/from-cli', 'the CLI conversation resumed with its branch');
    server.load({ turns: [reply.tool('read', { file_path: 'cli.md' }), reply.tool('write', { file_path: 'cli.md', content: 'and from VS Code\n' }), reply.text('VS Code done')] });
    await page.sendAndSettle('go on in the editor');
    assert.match(lastToolResult(request(server, 1)), /from the CLI/, 'it reads the worktree it worked in');
    assert.strictEqual(readFileSync(join(made.path, 'cli.md'), 'utf8'), 'and from VS Code\n');
    assert.ok(!existsSync(join(folder, 'cli.md')), 'and still not the checkout');
    assert.strictEqual(await vscode.commands.executeCommand('keel.discardWorktree'), true);
    assert.ok(!existsSync(made.path), 'Discard removes the worktree the CLI made');
  });

  it('reviews a file the worktree moved and edited against its old content, hunk by hunk, and applies it as a move', async () => {
    // An earlier test applied a hunk to the checkout's math.ts: back to the base, so the move may apply.
    writeFileSync(join(folder, 'src', 'math.ts'), math);
    const wt = await vscode.commands.executeCommand<Worktree>('keel.newChatInWorktree', 'moved');
    await page.waitFor(() => shownSession()?.branch === 'keel/moved', 'the branch of the new conversation');
    const edited = math
      .toString()
      .replace('export function sum(values: number[]): number {', 'export function sum(values: readonly number[]): number {')
      .replace("throw new Error('average of an empty list')", "throw new RangeError('average of an empty list')");
    // Moved without `git add`, as a shell `mv` leaves it.
    rmSync(join(wt.path, 'src', 'math.ts'));
    writeFileSync(join(wt.path, 'src', 'sums.ts'), edited);
    const moved = join(folder, 'src', 'sums.ts');
    try {
      const ids = await vscode.commands.executeCommand<string[]>('keel.reviewWorktreeChanges', 'src/sums.ts');
      assert.strictEqual(ids?.length, 1, 'one diff opened for the renamed file');
      const proposal = await proposalDocument(ids[0]!);
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposal.uri);
      const titles = lenses.map((l) => l.command?.title ?? '');
      // Two hunks: the two edits against src/math.ts, not one hunk of a whole new file.
      assert.ok(titles.some((t) => t.includes('Accept hunk 1')) && titles.some((t) => t.includes('Reject hunk 2')), titles.join(' | '));
      const acceptFirst = lenses.find((l) => l.command?.title.includes('Accept hunk 1'))!.command!;
      await vscode.commands.executeCommand(acceptFirst.command, ...(acceptFirst.arguments ?? []));
      const again = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', proposal.uri);
      const rejectSecond = again.find((l) => l.command?.title.includes('Reject hunk 2'))!.command!;
      await vscode.commands.executeCommand(rejectSecond.command, ...(rejectSecond.arguments ?? []));
      const onlyFirst = math.toString().replace('export function sum(values: number[]): number {', 'export function sum(values: readonly number[]): number {');
      await until(() => existsSync(moved), 'the moved file in the checkout');
      assert.ok(readFileSync(moved).equals(Buffer.from(onlyFirst)), 'the old content with exactly the accepted hunk, at the new path');
      assert.ok(!existsSync(join(folder, 'src', 'math.ts')), 'the old path is gone, as the worktree moved it');
    } finally {
      rmSync(moved, { force: true });
      writeFileSync(join(folder, 'src', 'math.ts'), math);
    }
    assert.strictEqual(await vscode.commands.executeCommand('keel.discardWorktree'), true);
    assert.ok(!existsSync(wt.path));
  });

  it('says so when the folder is not in a git repository', async () => {
    rmSync(join(folder, '.git'), { recursive: true, force: true });
    try {
      const made = await vscode.commands.executeCommand<Worktree | undefined>('keel.newChatInWorktree', 'nogit');
      assert.strictEqual(made, undefined);
      assert.ok(api.testHooks.logLines().some((l) => /keel\.newChatInWorktree failed: A worktree needs a git repository/.test(l)), api.testHooks.logLines().slice(-5).join('\n'));
    } finally {
      git(folder, 'init', '-q');
    }
  });
});
