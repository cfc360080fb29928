/// <reference types="mocha" />
// Plan mode in a real extension host: "Keel: Plan…" runs a read-only plan with the scripted
// model, the plan opens as a real file in an editor, an unsaved edit there is what executes,
// the steps become the live todo list, and a write the model calls anyway is refused.
import * as assert from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { PlanInfo } from '../../../src/protocol/planState';
import type { TodoItem } from '../../../src/protocol/sessionState';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun, workspaceFolder, workspaceSessionsDir } from './support/keelSetup';
import { lastToolResult, request, systemText, userTexts } from './support/modelRequests';

keelHomeForRun();

const PLAN = [
  '## Goal',
  'Make average() safe.',
  '',
  '## Steps',
  '1. Change average in src/math.ts',
  '2. Add a test in test/math.test.mjs',
  '',
  '## Risks',
  'Callers that expect a throw.',
  '',
  '## Verification',
  'npm test',
].join('\n');

function offeredTools(index: number, chat: ReturnType<typeof useConfiguredChat>): string[] {
  return ((request(chat.server, index).body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

describe('plan mode', () => {
  const chat = useConfiguredChat();
  const plans = (): PlanInfo[] => chat.page.named('plan').flatMap((e) => ((e as { plan: PlanInfo | null }).plan ? [(e as { plan: PlanInfo }).plan] : []));

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await chat.page.bus.request('mode.set', { mode: 'act' });
  });

  it('"Keel: Plan…" plans with read-only tools and the plan prompt, and offers the plan', async () => {
    chat.server.load({ turns: [reply.tool('read', { file_path: 'src/math.ts' }), reply.text(PLAN)] });
    const from = chat.page.events.length;
    await vscode.commands.executeCommand('keel.plan', 'Make average safe for empty lists');
    await chat.page.runEnded(from, 30_000);
    await chat.page.waitFor(() => plans().some((p) => p.status === 'proposed'), 'the plan to be offered');

    assert.match(systemText(request(chat.server, 0)), /plan mode/);
    const tools = offeredTools(0, chat);
    assert.ok(tools.includes('read') && tools.includes('grep'), `read-only tools offered: ${tools.join(', ')}`);
    for (const writer of ['write', 'edit', 'bash']) assert.ok(!tools.includes(writer), `${writer} is not offered in plan mode`);
    // The task is the message's last words; event rules' plan-mode reminder may go in front of it.
    assert.match(userTexts(request(chat.server, 0)).at(-1) ?? '', /(^|<\/system-reminder>\s*)Make average safe for empty lists$/);
    assert.deepStrictEqual(plans().at(-1), { id: 'plan-1', status: 'proposed', steps: 2 });
    assert.strictEqual(chat.page.run?.mode, 'plan', 'the view shows plan mode');
  });

  it('opens the plan in an editor; the edited text is what executes, in act mode, with the steps as todos', async function () {
    // Saving a Markdown file waits for the built-in Markdown extension's save participants.
    this.timeout(90_000);
    chat.server.load({
      turns: [
        reply.text(PLAN),
        {
          ...reply.tool('todo_write', {
            todos: [
              { id: 'step-1', content: 'Change average in src/math.ts', status: 'in_progress' },
              { id: 'step-2', content: 'Add a test in test/math.test.mjs', status: 'pending' },
              { id: 'step-3', content: 'Tell the person about callers', status: 'pending' },
            ],
          }),
          match: { lastUserIncludes: 'Tell the person about callers' },
        },
        reply.text('Working through the plan.'),
      ],
    });
    let from = chat.page.events.length;
    await chat.page.bus.request('session.send', { text: 'plan it', mode: 'plan' });
    await chat.page.runEnded(from, 30_000);
    await chat.page.waitFor(() => plans().at(-1)?.status === 'proposed', 'the plan');
    const planId = plans().at(-1)!.id;

    const opened = await chat.page.bus.request('plan.open', { planId });
    assert.strictEqual(opened.opened, true);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'the plan is open in an editor');
    assert.match(editor.document.uri.fsPath, new RegExp(`\\.plans[\\\\/]${planId}\\.md$`));
    assert.strictEqual(editor.document.getText(), PLAN);
    // An edit left unsaved: executing saves it first, so what the person sees is what runs.
    const end = editor.document.positionAt(PLAN.indexOf('\n\n## Risks'));
    assert.ok(await editor.edit((b) => b.insert(end, '\n3. Tell the person about callers')), 'the edit applied');
    assert.ok(editor.document.isDirty);

    from = chat.page.events.length;
    await chat.page.bus.request('plan.execute', { planId });
    await chat.page.runEnded(from, 30_000);

    const executeRequest = request(chat.server, 1);
    assert.match(userTexts(executeRequest).at(-1) ?? '', /Execute this plan[\s\S]*3\. Tell the person about callers/);
    assert.ok(offeredTools(1, chat).includes('write'), 'act mode offers the write tools again');
    assert.match(systemText(executeRequest), /You are Keel, a coding agent/);
    assert.strictEqual(editor.document.isDirty, false, 'the edit was saved');

    const todos = chat.page.events.slice(from).filter((e) => e.name === 'todos').map((e) => (e.data as { items: TodoItem[] }).items);
    assert.deepStrictEqual(
      todos[0]?.map((t) => `${t.id} ${t.status} ${t.content}`),
      ['step-1 pending Change average in src/math.ts', 'step-2 pending Add a test in test/math.test.mjs', 'step-3 pending Tell the person about callers'],
      'the plan steps became the todo list when execution started',
    );
    assert.strictEqual(todos.at(-1)?.[0]?.status, 'in_progress', 'the agent updates the checklist as it works');
    assert.strictEqual(plans().at(-1)?.status, 'executed');
    assert.strictEqual(chat.page.run?.mode, 'act');

    const sessionId = (chat.page.named('session').at(-1) as { id: string }).id;
    const log = readFileSync(join(workspaceSessionsDir(), `${sessionId}.jsonl`), 'utf8');
    assert.match(log, /"type":"plan"[^\n]*"status":"edited"[^\n]*Tell the person about callers/, 'the session keeps the edited plan');
  });

  it('"Toggle Plan Mode", "Open Plan" and the plan editor\'s Execute button act on the conversation in view', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('keel.togglePlanMode');
    await chat.page.waitFor(() => chat.page.run?.mode === 'plan', 'plan mode after the toggle');
    chat.server.load({
      turns: [reply.text(PLAN), { ...reply.text('Executed from the editor.'), match: { lastUserIncludes: 'Execute this plan' } }],
    });
    let from = chat.page.events.length;
    await chat.page.bus.request('session.send', { text: 'plan from the toggle' });
    await chat.page.runEnded(from, 30_000);
    assert.match(systemText(request(chat.server, 0)), /plan mode/, 'a plain message in plan mode is planned');

    await vscode.commands.executeCommand('keel.openPlan');
    const planFile = vscode.window.activeTextEditor?.document.uri;
    assert.ok(planFile && /plan-\d+\.md$/.test(planFile.fsPath), `"Open Plan" opened the plan file (${planFile?.fsPath})`);

    from = chat.page.events.length;
    await vscode.commands.executeCommand('keel.executePlan', planFile);
    await chat.page.runEnded(from, 30_000);
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'Executed from the editor.');
    assert.strictEqual(chat.page.run?.mode, 'act');

    await vscode.commands.executeCommand('keel.togglePlanMode');
    await chat.page.waitFor(() => chat.page.run?.mode === 'plan', 'plan mode after a second toggle');
    await vscode.commands.executeCommand('keel.togglePlanMode');
    await chat.page.waitFor(() => chat.page.run?.mode === 'act', 'act mode after a third toggle');
  });

  it('refuses a write the model calls anyway in plan mode: the file is untouched and the model is told why', async () => {
    const file = join(workspaceFolder(), 'src', 'math.ts');
    const before = readFileSync(file, 'utf8');
    chat.server.load({
      turns: [
        reply.tool('write', { file_path: 'src/math.ts', content: 'export const broken = true;\n' }),
        reply.text(PLAN),
      ],
    });
    const from = chat.page.events.length;
    const asked = chat.page.approvals.length;
    await chat.page.bus.request('session.send', { text: 'rewrite math.ts', mode: 'plan' });
    await chat.page.runEnded(from, 30_000);
    assert.strictEqual(readFileSync(file, 'utf8'), before, 'src/math.ts is unchanged');
    assert.strictEqual(chat.page.approvals.length, asked, 'nothing was put to the person: plan mode never writes');
    assert.match(lastToolResult(request(chat.server, 1)), /Plan mode is read-only: "write" is not available, so nothing was changed/);
    const call = chat.page.toolCalls().find((c) => c.name === 'write');
    assert.ok(call?.result?.isError, 'the refused call shows as an error in the view');
  });
});
