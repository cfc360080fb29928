/// <reference types="mocha" />
// Usage a person can see in the real view: a usage line under each answer that adds up to the
// conversation's total in the footer, and the context meter's breakdown, opened from the
// keyboard, whose parts add up to what the meter counts.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { keelContentFrame } from './harness/keelView.ts';
import { seriousViolations } from './support/axeCheck.ts';
import { useChatRig } from './support/useChatRig.ts';

const TIMEOUT = 60_000;
const count = (text: string | null): number => Number((text ?? '').replace(/[^\d]/g, ''));

describe('Keel usage and the context meter in code-server', () => {
  const rig = useChatRig({ newChatEachTest: true });

  it('each answer shows its usage, the lines add up to the total, and the meter parts add up to its count', async function () {
    this.timeout(180_000);
    rig.server.load({
      turns: [
        reply.tool('ls', { path: '.' }, { usage: { prompt_tokens: 2400, completion_tokens: 35 } }),
        reply.text('The workspace has a README.', { usage: { prompt_tokens: 2600, completion_tokens: 9 } }),
        reply.text('Nothing else.', { usage: { prompt_tokens: 2700, completion_tokens: 4 } }),
      ],
    });
    await rig.chat.send('usage-alpha: what is here?');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'The workspace has a README.');
    await rig.chat.send('usage-beta: anything else?');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Nothing else.');

    const lines = rig.chat.frame.getByTestId('message-usage');
    await lines.nth(2).waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await lines.count(), 3);
    assert.deepStrictEqual(await lines.allInnerTexts(), ['2,400 in · 35 out · unknown price', '2,600 in · 9 out · unknown price', '2,700 in · 4 out · unknown price']);
    let sum = 0;
    for (let i = 0; i < 3; i++) sum += Number(await lines.nth(i).getAttribute('data-input')) + Number(await lines.nth(i).getAttribute('data-output'));
    const total = rig.chat.frame.getByTestId('conversation-total');
    await total.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(count(await total.innerText()), sum);
    assert.strictEqual(sum, 2400 + 35 + 2600 + 9 + 2700 + 4);

    // The meter counts the last request and its answer; its parts, opened from the keyboard, add up to that.
    const meter = rig.chat.frame.getByTestId('context-meter');
    const counted = (await meter.getAttribute('aria-valuenow')) ?? String(count(await meter.innerText()));
    assert.strictEqual(Number(counted), 2704);
    const toggle = rig.chat.frame.getByTestId('context-breakdown-toggle');
    await toggle.focus();
    await rig.page.keyboard.press('Enter');
    assert.strictEqual(await toggle.getAttribute('aria-expanded'), 'true');
    const parts = rig.chat.frame.getByTestId('context-part');
    await parts.first().waitFor({ timeout: TIMEOUT });
    let inParts = 0;
    for (const tokens of await parts.evaluateAll((items) => items.map((item) => item.getAttribute('data-tokens')))) inParts += Number(tokens);
    assert.strictEqual(inParts, 2704);
    assert.match((await parts.allInnerTexts()).join('\n'), /System prompt and tools: [\d,]+ tokens/);
    // The usage lines and the open breakdown are readable: axe-core finds nothing serious.
    const found = await seriousViolations(await keelContentFrame(rig.page));
    assert.deepStrictEqual(found, [], `axe-core:\n${JSON.stringify(found, null, 2)}`);
    await rig.page.keyboard.press('Escape');
    await rig.chat.frame.getByTestId('context-breakdown').waitFor({ state: 'hidden', timeout: TIMEOUT });
  });
});
