/// <reference types="mocha" />
// A workspace rule in .keel/rules.json, in code-server: it fires when the agent reads the
// SQL schema, the next model request carries its reminder, and the turn shows a small
// "1 rule" marker (with the rule's notice in sight), also after a window reload.
import * as assert from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { reloadWindow } from './harness/workbench.ts';
import { useChatRig } from './support/useChatRig.ts';

const REMINDER = 'Team SQL conventions: snake_case names, one migration per change.';

describe('Keel event rules in code-server', () => {
  const rig = useChatRig({
    openChat: false,
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, 'db'), { recursive: true });
      writeFileSync(join(workspace, 'db', 'schema.sql'), 'CREATE TABLE users (id int);\n');
      mkdirSync(join(workspace, '.keel'), { recursive: true });
      writeFileSync(
        join(workspace, '.keel', 'rules.json'),
        JSON.stringify({
          rules: [
            {
              id: 'sql-conventions',
              on: 'tool_result',
              if: 'event.tool == "read" && event.path.endsWith(".sql")',
              actions: [
                { type: 'reminder', text: REMINDER },
                { type: 'notify', text: 'Keel reminded the agent of the SQL conventions.' },
              ],
            },
          ],
        }),
      );
    },
  });

  it('fires on the SQL file, sends the reminder with the next request, and marks the turn', async function () {
    this.timeout(120_000);
    await rig.chat.open();
    rig.server.load({
      turns: [
        reply.tool('read', { file_path: 'db/schema.sql' }),
        // Answered only when the reminder is the request's last message.
        reply.text('The schema follows the conventions.', { match: { lastUserIncludes: 'snake_case names' } }),
      ],
    });
    await rig.chat.send('check the schema');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'The schema follows the conventions.');

    const marker = rig.chat.frame.getByTestId('rules-marker');
    await marker.waitFor({ timeout: 30_000 });
    assert.strictEqual((await marker.locator('summary').innerText()).trim(), '1 rule');
    assert.match((await rig.chat.frame.getByTestId('rule-notice').innerText()).trim(), /reminded the agent of the SQL conventions/);
    await marker.locator('summary').click();
    const listed = rig.chat.frame.getByTestId('fired-rule');
    await listed.waitFor({ timeout: 10_000 });
    assert.match(await listed.innerText(), /sql-conventions[\s\S]*reminded the agent: Team SQL conventions/);

    await reloadWindow(rig.page);
    await rig.chat.open();
    await rig.chat.frame.getByTestId('rules-marker').waitFor({ timeout: 30_000 });
    assert.strictEqual((await rig.chat.frame.getByTestId('rules-marker').locator('summary').innerText()).trim(), '1 rule');
  });
});
