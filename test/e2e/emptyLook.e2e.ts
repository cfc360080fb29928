/// <reference types="mocha" />
// The first thing a person sees, in code-server's real sidebar: the empty chat and the first-run
// panel at 220, 300 and 500 px in the light, dark and both high-contrast themes. No text is cut
// (the composer's placeholder included), nothing runs past the view's edge, the context meter is
// not drawn before there is anything to measure, and axe-core finds no serious problem.
import * as assert from 'node:assert';
import type { Frame, Locator } from 'playwright-core';
import { keelContentFrame } from './harness/keelView.ts';
import { seriousViolations } from './support/axeCheck.ts';
import { cutThings } from './support/chatLayout.ts';
import { THEMES, useTheme } from './support/colorTheme.ts';
import { setSidebarWidth } from './support/sidebarWidth.ts';
import { useChatRig } from './support/useChatRig.ts';
import { setWorkspaceSetting } from './support/workspaceSettings.ts';

const TIMEOUT = 30_000;
const WIDTHS = [500, 300, 220];

/** Text in `selector` that is cut or runs past the view's edge, in words. */
async function cutText(frame: Frame, selector: string): Promise<string[]> {
  return frame.evaluate((root) => {
    const cut: string[] = [];
    const width = window.innerWidth;
    for (const element of document.querySelectorAll(`${root}, ${root} *`)) {
      const rect = element.getBoundingClientRect();
      if (rect.width < 1 || !element.checkVisibility({ visibilityProperty: true })) continue;
      const text = (element.textContent ?? '').trim().slice(0, 60);
      const style = getComputedStyle(element);
      const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (clips && element.scrollWidth > element.clientWidth + 1) cut.push(`"${text}" is cut (${element.scrollWidth} > ${element.clientWidth} px)`);
      if (rect.right > width + 1 || rect.left < -1) cut.push(`"${text}" runs past the view's edge (${Math.round(rect.left)}..${Math.round(rect.right)} of ${width} px)`);
    }
    return cut;
  }, selector);
}

async function lookAtEveryWidthAndTheme(rig: ReturnType<typeof useChatRig>, frame: Frame, selector: string): Promise<void> {
  for (const [theme, kind] of THEMES) {
    await useTheme(rig.workspace, frame, theme, kind);
    for (const width of WIDTHS) {
      await setSidebarWidth(rig.page, frame, width);
      await rig.page.mouse.move(width + 300, 300);
      const cut = [...(await cutThings(frame)), ...(await cutText(frame, selector))];
      assert.deepStrictEqual(cut, [], `${theme} at ${width} px`);
    }
    const found = await seriousViolations(frame);
    assert.deepStrictEqual(found, [], `axe-core in ${theme}:\n${JSON.stringify(found, null, 2)}`);
  }
}

/** The empty composer is as tall as its whole placeholder, not a part of a line of it. */
async function assertPlaceholderFits(input: Locator, when: string): Promise<void> {
  const box = await input.evaluate((element: HTMLTextAreaElement) => {
    const shown = element.clientHeight;
    element.value = element.placeholder;
    const needed = element.scrollHeight;
    element.value = '';
    return { shown, needed };
  });
  assert.ok(box.shown + 1 >= box.needed, `${when}: the composer is ${box.shown} px tall, its placeholder needs ${box.needed} px`);
}

describe('the empty chat, as a person first sees it', () => {
  const rig = useChatRig({ cleanup: ({ workspace }) => setWorkspaceSetting(workspace, 'workbench.colorTheme', undefined) });

  it('shows its welcome, a whole placeholder and no empty context meter at 220, 300 and 500 px in four themes', async function () {
    this.timeout(240_000);
    const frame = await keelContentFrame(rig.page);
    await rig.chat.frame.locator('.empty-state').waitFor({ timeout: TIMEOUT });
    assert.strictEqual(await rig.chat.frame.getByTestId('context-meter').count(), 0, 'no meter before the first reply');
    const input = rig.chat.composer();
    assert.match((await input.getAttribute('placeholder')) ?? '', /Ask Keel/);
    // As the view first opens, before anything resizes it (it is drawn hidden behind the early view).
    await assertPlaceholderFits(input, 'as the view opens');
    await lookAtEveryWidthAndTheme(rig, frame, '.empty-state');
    // And at the narrowest width, where it wraps.
    await assertPlaceholderFits(input, 'at 220 px');
  });
});

describe('the first-run panel, before a model is configured', () => {
  const rig = useChatRig({ model: 'none', cleanup: ({ workspace }) => setWorkspaceSetting(workspace, 'workbench.colorTheme', undefined) });

  it('keeps its text and buttons whole at 220, 300 and 500 px in four themes', async function () {
    this.timeout(240_000);
    const frame = await keelContentFrame(rig.page);
    await rig.chat.frame.getByTestId('first-run').waitFor({ timeout: TIMEOUT });
    await lookAtEveryWidthAndTheme(rig, frame, '[data-testid="first-run"]');
  });
});
