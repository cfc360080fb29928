/// <reference types="mocha" />
// A repository set up for another agent, as a person meets it in code-server: its command file
// is in the composer's `/` menu and runs with its arguments, and its skill is offered too.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;

describe('bring your setup', () => {
  const rig = useChatRig({
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, '.claude', 'commands'), { recursive: true });
      writeFileSync(join(workspace, '.claude', 'commands', 'fix-issue.md'), '---\ndescription: Fix a tracker issue by number\n---\nFix issue $ARGUMENTS and follow the house style.\n');
      mkdirSync(join(workspace, '.claude', 'skills', 'release-notes'), { recursive: true });
      writeFileSync(join(workspace, '.claude', 'skills', 'release-notes', 'SKILL.md'), '---\nname: release-notes\ndescription: Write release notes from the changelog\n---\nRead CHANGELOG.md first.\n');
    },
    cleanup: ({ workspace }) => rmSync(join(workspace, '.claude'), { recursive: true, force: true }),
  });

  it("the / menu offers the repository's command file and skill, and the command runs with its arguments", async function () {
    this.timeout(120_000);
    const input = rig.chat.composer();
    await input.click();
    await input.pressSequentially('/');
    const items = rig.chat.frame.getByTestId('completion-item');
    await items.filter({ hasText: '/release-notes' }).waitFor({ timeout: TIMEOUT });
    const labels = (await items.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.ok(labels.some((l) => l.startsWith('/fix-issue') && l.includes('Fix a tracker issue by number')), labels.join(' | '));

    await input.pressSequentially('fix');
    await items.filter({ hasText: '/fix-issue' }).waitFor({ timeout: TIMEOUT });
    await input.press('Enter');
    assert.strictEqual(await input.inputValue(), '/fix-issue ');
    rig.server.load({ turns: [reply.text('On it.')] });
    await input.pressSequentially('1234');
    await input.press('Enter');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'On it.');
    const sent = JSON.stringify(rig.server.requests.at(-1)?.body.messages ?? []);
    assert.match(sent, /Fix issue 1234 and follow the house style\./, 'the command file was expanded with its arguments');
  });
});
