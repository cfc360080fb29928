/// <reference types="mocha" />
// Keel in the command palette as a person meets it: "Keel: Plan" runs "Keel: Plan…" (VS Code
// orders matches by recent use, then alphabetically, so no other Plan command may sort above it),
// and the commands that need a plan or a pending change are not offered until there is one.
import * as assert from 'node:assert';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { useChatRig } from './support/useChatRig.ts';
import { clearCommandHistory, paletteFor } from './support/palette.ts';

const TIMEOUT = 30_000;
const PLAN = ['## Goal', 'Tidy up.', '', '## Steps', '1. Rename x in src/math.ts', '', '## Risks', 'None.', '', '## Verification', 'npm test'].join('\n');

describe('the command palette', () => {
  const rig = useChatRig();

  before(async () => {
    await clearCommandHistory(rig.page);
  });

  it('without a plan or a pending change offers neither Run Plan, Show Plan nor Accept/Reject, and "Keel: Plan" selects Plan…', async () => {
    const plan = await paletteFor(rig.page, 'Keel: Plan', 'Keel: Plan…');
    assert.strictEqual(plan.selected, 'Keel: Plan…', `rows: ${plan.labels.join(' | ')}`);
    const keel = await paletteFor(rig.page, 'Keel: ', 'Keel: Plan…');
    for (const hidden of ['Keel: Run Plan', 'Keel: Show Plan', 'Keel: Stop', 'Keel: Accept Change', 'Keel: Reject All Pending Changes']) {
      assert.ok(!keel.labels.includes(hidden), `${hidden} is not offered (rows: ${keel.labels.join(' | ')})`);
    }
  });

  it('with a plan waiting offers Run Plan and Show Plan, and "Keel: Plan" still selects Plan…', async function () {
    this.timeout(90_000);
    rig.server.load({ turns: [reply.text(PLAN)] });
    const input = rig.chat.composer();
    await input.click();
    await input.fill('/plan tidy up');
    await input.press('Enter');
    await rig.chat.frame.getByTestId('plan-actions').waitFor({ timeout: TIMEOUT });
    const run = await paletteFor(rig.page, 'Keel: Run Plan', 'Keel: Run Plan');
    assert.strictEqual(run.selected, 'Keel: Run Plan');
    const plan = await paletteFor(rig.page, 'Keel: Plan', 'Keel: Plan…');
    assert.strictEqual(plan.selected, 'Keel: Plan…', `rows: ${plan.labels.join(' | ')}`);
    assert.ok(plan.labels.includes('Keel: Run Plan') && plan.labels.includes('Keel: Show Plan'), `the plan commands match too, below it (rows: ${plan.labels.join(' | ')})`);
  });
});
