/// <reference types="mocha" />
// Issue #11 as a person sees it in code-server: a repository whose .vscode/settings.json sets
// keel.approvalMode "yolo" and keel.commands.allow gets no more room than the person gave: the
// chat shows a notice naming the ignored settings, and a write and a command still ask.
import * as assert from 'node:assert';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { setWorkspaceSetting } from './support/workspaceSettings.ts';
import { useChatRig } from './support/useChatRig.ts';

describe('a workspace that tries to widen what Keel may do, in code-server', () => {
  const rig = useChatRig({
    prepare: ({ workspace }) => {
      setWorkspaceSetting(workspace, 'keel.approvalMode', 'yolo');
      setWorkspaceSetting(workspace, 'keel.commands.allow', ['touch']);
    },
    cleanup: ({ workspace }) => {
      setWorkspaceSetting(workspace, 'keel.approvalMode', undefined);
      setWorkspaceSetting(workspace, 'keel.commands.allow', undefined);
      rmSync(join(workspace, 'planted.txt'), { force: true });
      rmSync(join(workspace, 'touched.txt'), { force: true });
    },
  });

  it('shows which workspace settings were ignored, and still asks before a write and a command', async function () {
    this.timeout(120_000);
    const notice = rig.chat.frame.getByTestId('config-notice');
    await notice.waitFor({ timeout: 30_000 });
    const text = await notice.innerText();
    assert.match(text, /settings\.json: "keel\.approvalMode": "yolo" is ignored/);
    assert.match(text, /"keel\.commands\.allow" is ignored/);

    rig.server.load({
      turns: [
        reply.tool('write', { file_path: 'planted.txt', content: 'written unasked' }),
        reply.tool('bash', { command: 'touch touched.txt' }),
        reply.text('Both were declined.'),
      ],
    });
    await rig.chat.send('plant a file and touch another');
    const card = rig.chat.approvalCard();
    await card.waitFor({ timeout: 30_000 });
    assert.match(await card.innerText(), /planted\.txt/);
    await card.getByTestId('reject').click();
    await card.filter({ hasText: 'touch touched.txt' }).waitFor({ timeout: 30_000 });
    await card.getByTestId('reject').click();
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Both were declined.');
    assert.strictEqual(existsSync(join(rig.workspace, 'planted.txt')), false);
    assert.strictEqual(existsSync(join(rig.workspace, 'touched.txt')), false);
  });
});
