/// <reference types="mocha" />
// A subagent as a person meets it in code-server: the model hands a subtask to the repository's
// reviewer agent, and the task card in the conversation opens to the reviewer's own steps.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 30_000;

describe('subagents', () => {
  const rig = useChatRig({
    prepare: ({ workspace }) => {
      mkdirSync(join(workspace, '.claude', 'agents'), { recursive: true });
      writeFileSync(join(workspace, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews a file.\ntools: Read\n---\nYou review. E2E-REVIEWER\n');
      writeFileSync(join(workspace, 'review-me.txt'), 'a line to review\n');
    },
    cleanup: ({ workspace }) => {
      rmSync(join(workspace, '.claude'), { recursive: true, force: true });
      rmSync(join(workspace, 'review-me.txt'), { force: true });
    },
  });

  it('shows the task card, which opens to the subagent\'s steps', async function () {
    this.timeout(120_000);
    rig.server.load({
      turns: [
        reply.tool('task', { description: 'review review-me.txt', prompt: 'Review review-me.txt', agent: 'reviewer' }),
        { ...reply.tool('read', { file_path: 'review-me.txt' }), match: { systemIncludes: 'E2E-REVIEWER' } },
        { ...reply.text('The file reads fine.'), match: { systemIncludes: 'E2E-REVIEWER' } },
        { ...reply.text('The reviewer found nothing.'), match: { lastToolResultIncludes: 'reads fine' } },
      ],
    });
    await rig.chat.send('review review-me.txt');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'The reviewer found nothing.');
    const card = rig.chat.frame.getByTestId('tool-card').filter({ hasText: 'task · reviewer' }).last();
    await card.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await card.getByTestId('subagent-steps').count(), 0, 'the steps show only once the card is opened');
    await card.locator('.tool-card-header').click();
    const steps = card.getByTestId('subagent-step');
    await steps.first().waitFor({ timeout: TIMEOUT });
    const texts = (await steps.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepStrictEqual(texts, ['read review-me.txt', 'The file reads fine.']);
    assert.strictEqual(await steps.first().getAttribute('data-state'), 'done');
  });
});
