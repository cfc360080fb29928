/// <reference types="mocha" />
// The composer footer's agent and reasoning pickers as a person uses them in code-server: with a
// custom agent in the repository and a model that takes a reasoning effort, they pick the agent
// (its description is the picker's tooltip) and "high", and the next request the model server
// gets works as that agent and asks for that effort.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { keelContentFrame } from './harness/keelView.ts';
import { cutThings } from './support/chatLayout.ts';
import { setSidebarWidth } from './support/sidebarWidth.ts';
import { useChatRig } from './support/useChatRig.ts';
import { setModelSettings, setUserSetting } from './support/workspaceSettings.ts';

const TIMEOUT = 30_000;
const MODEL = 'gpt-5-mini';

/** Chooses the option labelled `label` in a footer picker, as a person does: open it, click the option. */
async function pick(frame: FrameLocator, picker: Locator, label: string): Promise<void> {
  await picker.click();
  // The open list is the only one shown; the others are hidden.
  await frame.getByRole('option', { name: label, exact: true }).click();
}

/** The value the picker shows, as the page's state has it. */
const valueOf = async (picker: Locator) => (await picker.getAttribute('data-value')) ?? '';

/** Waits until the picker's tooltip, which the host's state draws, matches `wanted`. */
async function waitForTitle(picker: Locator, wanted: RegExp): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  const title = async () => (await picker.getAttribute('title')) ?? '';
  while (!wanted.test(await title())) {
    if (Date.now() > deadline) throw new Error(`the picker's tooltip is "${await title()}", not ${String(wanted)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the composer\'s agent and reasoning pickers', () => {
  const rig = useChatRig({
    prepare: ({ workspace, server }) => {
      mkdirSync(join(workspace, '.keel', 'agents'), { recursive: true });
      writeFileSync(join(workspace, '.keel', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews changes for bugs.\n---\nYou review changes. E2E-REVIEWER\n');
      setModelSettings(workspace, { baseURL: server.baseURL, model: MODEL });
    },
    cleanup: ({ workspace }) => {
      rmSync(join(workspace, '.keel', 'agents'), { recursive: true, force: true });
      setUserSetting('keel.reasoning', undefined);
    },
  });

  it('sends the next request as the agent picked, with the reasoning effort picked', async function () {
    this.timeout(120_000);
    const agentPicker = rig.chat.frame.getByTestId('agent-picker');
    const reasoningPicker = rig.chat.frame.getByTestId('reasoning-picker');
    await agentPicker.waitFor({ timeout: TIMEOUT });
    await reasoningPicker.waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await valueOf(agentPicker), '', 'the conversation starts as Keel');
    assert.strictEqual(await valueOf(reasoningPicker), 'default');

    await pick(rig.chat.frame, agentPicker, 'reviewer');
    // The description is the tooltip once the host says the conversation works as the reviewer.
    await waitForTitle(agentPicker, /^Agent: reviewer \(Reviews changes for bugs\.\)$/);
    assert.strictEqual(await valueOf(agentPicker), 'reviewer');

    await pick(rig.chat.frame, reasoningPicker, 'Reasoning: high');
    // The tooltip says the choice once the host has it back: it went to the person's settings, the core was rebuilt.
    await waitForTitle(reasoningPicker, /^Reasoning: high, for custom\/gpt-5-mini$/);
    assert.strictEqual(await valueOf(reasoningPicker), 'high');

    rig.server.load({ turns: [{ ...reply.text('Reviewed with effort.'), match: { systemIncludes: 'E2E-REVIEWER' } }] });
    await rig.chat.send('review the last change');
    assert.strictEqual(await rig.chat.finishedAnswer(), 'Reviewed with effort.');
    const body = rig.server.requests.at(-1)!.body as Record<string, unknown>;
    assert.strictEqual(body.model, MODEL);
    assert.strictEqual(body.reasoning_effort, 'high');
    assert.strictEqual(rig.server.pendingTurns(), 0, 'the request worked as the reviewer (its prompt in the system message)');

    // In a narrow sidebar the two more pickers wrap with the others; none is cut.
    const frame = await keelContentFrame(rig.page);
    for (const width of [500, 220]) {
      await setSidebarWidth(rig.page, frame, width);
      assert.deepStrictEqual(await cutThings(frame), [], `at ${width} px`);
    }
  });
});
