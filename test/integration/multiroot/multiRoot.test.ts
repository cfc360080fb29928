/// <reference types="mocha" />
// A multi-root workspace in the real VS Code: the rig opens test/fixtures/workspaces/multiroot/
// team.code-workspace (folders web and api). One conversation spans both folders, web is the
// current project, paths prefixed with a folder name reach the other one, and the session
// is kept under the workspace file's key.
import * as assert from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sessionsDir, workspaceKey } from '../../../src/core/paths';
import type { WorkspaceProjects } from '../../../src/protocol/sessionState';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from '../suite/support/chatFixture';
import { keelHomeForRun } from '../suite/support/keelSetup';
import { lastToolResult, request, workspaceContext } from '../suite/support/modelRequests';

keelHomeForRun();

function folderPath(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  assert.ok(folder, `the workspace has a folder named ${name}`);
  return folder.uri.fsPath;
}

function workspaceFilePath(): string {
  const file = vscode.workspace.workspaceFile;
  assert.ok(file && file.scheme === 'file', 'the rig opened a saved multi-root workspace (a .code-workspace file)');
  return file.fsPath;
}

function sessionsOfWorkspace(): string {
  const home = process.env.KEEL_HOME;
  assert.ok(home, 'KEEL_HOME is set for the run');
  return sessionsDir(home, workspaceKey({ root: folderPath('web'), workspaceFile: workspaceFilePath() }));
}

describe('a multi-root workspace', () => {
  const chat = useConfiguredChat();
  let latestProjects: WorkspaceProjects | undefined;

  before(() => {
    chat.page.bus.on('workspaceProjects', (projects) => {
      latestProjects = projects;
    });
  });

  after(async () => {
    // Leave the first folder current for whatever runs next in this extension host.
    await chat.page?.bus.request('workspaceProject.select', { name: 'web' }).catch(() => undefined);
  });

  it('opens the .code-workspace with both folders, and the view lists them as projects with web current', async () => {
    assert.match(workspaceFilePath(), /team\.code-workspace$/);
    assert.deepStrictEqual(
      vscode.workspace.workspaceFolders?.map((f) => f.name),
      ['web', 'api'],
    );
    const projects = chat.page.snapshots.at(-1)?.workspaceProjects;
    assert.ok(projects, 'the snapshot carries the projects');
    assert.strictEqual(projects.current, 'web');
    assert.deepStrictEqual(
      projects.projects.map((p) => [p.name, p.path, p.type]),
      [
        ['web', folderPath('web'), 'TypeScript (Node.js)'],
        ['api', folderPath('api'), 'Go'],
      ],
    );
  });

  it('reads a file of the second folder by its prefix and edits in the current project; the session is kept under the workspace file', async () => {
    // A plain-text file: saving a .ts or .md file right after its language extension activates
    // can time out VS Code's will-save participants on a loaded machine, and the save then fails.
    const notes = join(folderPath('web'), 'api-url.txt');
    const server = join(folderPath('api'), 'src', 'server.go');
    const serverBefore = readFileSync(server, 'utf8');
    chat.server.load({
      turns: [
        reply.tools([
          { name: 'read', arguments: { file_path: 'api/src/server.go' } },
          { name: 'read', arguments: { file_path: 'api-url.txt' } },
        ]),
        reply.tool('edit', { file_path: 'api-url.txt', old_string: 'localhost:8080.', new_string: 'localhost:8080/health.' }),
        reply.text('The client now calls /health.'),
      ],
    });
    const from = chat.page.events.length;
    await chat.page.send('point the web client at the api health check');

    const asked = await chat.page.nextApproval();
    assert.strictEqual(asked.request.tool, 'edit');
    assert.strictEqual(asked.request.change?.displayPath, 'web/api-url.txt', 'the edit is in the current project, web');
    asked.answer({ approved: true, scope: 'once' });
    await chat.page.runEnded(from);
    const editCall = chat.page.toolCalls().find((c) => c.toolCallId === asked.request.toolCallId);
    assert.strictEqual(editCall?.state, 'done', `the edit ran: ${JSON.stringify(editCall?.result)}`);

    assert.match(lastToolResult(request(chat.server, 1)), /The web client calls/);
    const firstResults = request(chat.server, 1)
      .body.messages.filter((m) => m.role === 'tool')
      .map((m) => JSON.stringify(m.content))
      .join('\n');
    assert.match(firstResults, /serves \/health/, 'the model read api/src/server.go through its folder prefix');
    assert.strictEqual(readFileSync(notes, 'utf8'), 'The web client calls the api at http://localhost:8080/health.\n');
    assert.strictEqual(readFileSync(server, 'utf8'), serverBefore, 'the other folder is untouched');

    const system = workspaceContext(request(chat.server, 0));
    assert.ok(system.includes(`- web (current project): ${folderPath('web')} — TypeScript (Node.js)`), system);
    assert.ok(system.includes(`- api: ${folderPath('api')} — Go`), system);

    const sessionId = (chat.page.named('session').at(-1) as { id: string | null } | undefined)?.id;
    assert.ok(sessionId, 'the conversation was saved');
    const log = join(sessionsOfWorkspace(), `${sessionId}.jsonl`);
    assert.ok(existsSync(log), `the log is under the workspace file's key: ${log}`);
    const records = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.strictEqual(records[0]?.workspaceFile, workspaceFilePath());
    const toolMetas = records
      .filter((r) => r.type === 'message' && (r.message as { role: string }).role === 'tool')
      .map((r) => (r.meta as { projects?: string[] } | undefined)?.projects);
    assert.deepStrictEqual(toolMetas, [['api', 'web'], ['web']], 'each tool result records the projects it concerned');
    const home = process.env.KEEL_HOME ?? '';
    assert.ok(!existsSync(join(sessionsDir(home, workspaceKey({ root: folderPath('web') })), `${sessionId}.jsonl`)), 'not under the folder key');

    const listed = await chat.page.bus.request('sessions.list', {});
    assert.ok(listed.sessions.some((s) => s.id === sessionId), 'sessions.list shows it');
  });

  it('switches the current project: relative paths follow it, the session records it, and a resume comes back to it', async () => {
    const selected = await chat.page.bus.request('workspaceProject.select', { name: 'api' });
    assert.strictEqual(selected.current, 'api');
    await chat.page.waitFor(() => latestProjects?.current === 'api', 'the projects event naming api current');

    chat.server.load({ turns: [reply.tool('read', { file_path: 'src/server.go' }), reply.text('It serves /health.')] });
    await chat.page.sendAndSettle('what does the server serve?');
    assert.match(lastToolResult(request(chat.server, 1)), /serves \/health/, 'src/server.go resolved in api, the current project');
    assert.ok(workspaceContext(request(chat.server, 0)).includes(`- api (current project): ${folderPath('api')}`));

    const sessionId = (chat.page.named('session').at(-1) as { id: string | null } | undefined)?.id;
    assert.ok(sessionId);
    const log = readFileSync(join(sessionsOfWorkspace(), `${sessionId}.jsonl`), 'utf8');
    assert.ok(log.includes(JSON.stringify(folderPath('api'))) && log.includes('"currentProject"'), 'the choice is in the session log');

    await chat.page.newChat();
    assert.strictEqual(chat.page.snapshots.at(-1)?.workspaceProjects?.current, 'api', 'a new chat starts in the same project');
    await chat.page.bus.request('workspaceProject.select', { name: 'web' });
    const from = chat.page.snapshots.length;
    await chat.page.bus.request('sessions.resume', { id: sessionId });
    await chat.page.waitFor(() => chat.page.snapshots.length > from, 'the resumed snapshot');
    assert.strictEqual(chat.page.snapshots.at(-1)?.workspaceProjects?.current, 'api', 'the resumed conversation is back in api');
  });

  it('refuses an unknown project, naming the folders that exist', async () => {
    await assert.rejects(chat.page.bus.request('workspaceProject.select', { name: 'docs' }), (err: Error) => {
      assert.match(err.message, /no workspace folder "docs"/);
      assert.ok(err.message.includes(`web (${folderPath('web')}`) && err.message.includes(`api (${folderPath('api')}`), err.message);
      return true;
    });
  });
});
