/// <reference types="mocha" />
// Event rules in a real extension host: a workspace rule in .keel/rules.json fires when the
// agent reads the SQL schema, the next request to the model carries its reminder, the turn
// carries the fired rule (the view's marker), a broken rule is reported by file and id, and a
// resumed conversation shows its fired rules again.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun, workspaceFolder } from './support/keelSetup';
import { request, userTexts } from './support/modelRequests';

keelHomeForRun();

const REMINDER = 'Team SQL conventions: snake_case names, one migration per change.';

describe('event rules', () => {
  const chat = useConfiguredChat();
  let folder: string;

  before(() => {
    folder = workspaceFolder();
    mkdirSync(join(folder, 'rules-db'), { recursive: true });
    writeFileSync(join(folder, 'rules-db', 'schema.sql'), 'CREATE TABLE users (id int);\n');
    mkdirSync(join(folder, '.keel'), { recursive: true });
    writeFileSync(
      join(folder, '.keel', 'rules.json'),
      JSON.stringify({
        rules: [
          {
            id: 'sql-conventions',
            on: 'tool_result',
            if: 'event.tool == "read" && event.path.endsWith(".sql")',
            actions: [
              { type: 'reminder', text: REMINDER },
              { type: 'notify', text: 'Reminded the agent of the SQL conventions.' },
            ],
          },
          { id: 'broken', on: 'prompt_submit', if: 'event.prompt.contains("x")', actions: [{ type: 'notify', text: 'x' }] },
        ],
      }),
    );
  });

  after(() => {
    rmSync(join(folder, '.keel', 'rules.json'), { force: true });
    rmSync(join(folder, 'rules-db'), { recursive: true, force: true });
  });

  it('fires after the read of a .sql file, sends the reminder with the next request, and marks the turn', async () => {
    chat.server.load({
      turns: [reply.tool('read', { file_path: 'rules-db/schema.sql' }), reply.text('Checked the schema.', { match: { lastUserIncludes: 'snake_case' } })],
    });
    await chat.page.sendAndSettle('check the schema');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'Checked the schema.');
    assert.match(userTexts(request(chat.server, 1)).at(-1) ?? '', /<system-reminder>[\s\S]*snake_case names/);

    const marked = chat.page.messages.filter((m) => m.rules?.length);
    assert.strictEqual(marked.length, 1, 'one turn carries the fired rule');
    assert.deepStrictEqual(marked[0]!.rules, [
      {
        id: 'sql-conventions',
        source: 'workspace',
        event: 'tool_result',
        actions: [
          { type: 'reminder', text: REMINDER },
          { type: 'notify', text: 'Reminded the agent of the SQL conventions.' },
        ],
      },
    ]);
    assert.ok(marked[0]!.parts.some((p) => p.type === 'toolCall' && p.name === 'read'), 'the marker is on the turn that read the file');

    const problem = chat.page.errors.find((e) => e.code === 'invalid_config');
    assert.ok(problem, 'the broken rule is reported');
    assert.match(problem.message, /\.keel\/rules\.json: rule "broken": "if": Unknown method "contains"/);
  });

  it('shows the fired rules again on a resumed conversation', async () => {
    chat.server.load({
      turns: [reply.tool('read', { file_path: 'rules-db/schema.sql' }), reply.text('Read it.')],
    });
    await chat.page.sendAndSettle('read the schema again');
    const sessionId = (chat.page.named('session').at(-1) as { id: string | null }).id;
    assert.ok(sessionId);
    await chat.page.newChat();

    const from = chat.page.snapshots.length;
    await chat.page.bus.request('sessions.resume', { id: sessionId });
    await chat.page.waitFor(() => chat.page.snapshots.length > from, 'the snapshot of the resumed conversation');
    const marked = chat.page.messages.filter((m) => m.rules?.length);
    assert.deepStrictEqual(
      marked.map((m) => m.rules!.map((r) => r.id)),
      [['sql-conventions']],
    );
  });
});
