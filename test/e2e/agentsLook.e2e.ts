/// <reference types="mocha" />
// How the several-agents UI looks in code-server's real sidebar, with default settings: a
// conversation in a git worktree (its branch chip and Review / Keep / Discard in the header)
// and a sessions list holding a running, a waiting-for-approval, a finished and a failed
// conversation. At 500 and 220 px wide, in the light, dark, high-contrast and
// high-contrast-light themes, nothing of it is cut or drawn over something else, and axe-core
// finds no serious or critical problem (colour contrast included). In English, and in Chinese
// with the CJK font the machine must have. Screenshots land in test-results/agents-look/.
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { reply } from '../fixtures/scriptedServer/replyBuilder.ts';
import { e2eEnv } from './harness/e2eEnv.ts';
import { keelContentFrame } from './harness/keelView.ts';
import { openWorkbench } from './harness/workbench.ts';
import { seriousViolations } from './support/axeCheck.ts';
import { THEMES, useTheme } from './support/colorTheme.ts';
import { setSidebarWidth } from './support/sidebarWidth.ts';
import { useChatRig } from './support/useChatRig.ts';
import { setWorkspaceSetting } from './support/workspaceSettings.ts';

const TIMEOUT = 30_000;
const SCRATCH = 'agents-look';
const env = { ...process.env, GIT_AUTHOR_NAME: 'E2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'E2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8' });

interface Language {
  name: string;
  /** The `vscode.nls.locale` cookie, or none for VS Code's default (English). */
  locale?: string;
  /** What the person types in each conversation (it becomes the row's title). */
  prompts: { finished: string; failed: string; approval: string; running: string; worktree: string };
  branch: string;
  /** How a row's date reads in the language. */
  date: RegExp;
}

const LANGUAGES: Language[] = [
  {
    name: 'English',
    prompts: {
      finished: 'Summarise the release notes for the next version',
      failed: 'Rename the helpers in the parser module',
      approval: 'Write the later note about the migration',
      running: 'Keep reading the whole test suite',
      worktree: 'Fix the flaky date test in a worktree',
    },
    branch: 'look-flaky-dates',
    date: /^[A-Z][a-z]{2} \d{1,2}, \d{4}/,
  },
  {
    name: 'Chinese',
    locale: 'zh-cn',
    prompts: {
      finished: '总结下一个版本的发布说明',
      failed: '重命名解析器模块里的辅助函数',
      approval: '写一份关于迁移的备忘',
      running: '继续阅读整个测试套件',
      worktree: '在工作树里修好不稳定的日期测试',
    },
    branch: 'look-zh-dates',
    date: /^\d{4}年\d{1,2}月\d{1,2}日/,
  },
];

/** What is cut, squeezed or drawn over something else in the chat header and the branch chip, in words (empty when nothing is). */
async function headerProblems(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const found: string[] = [];
    const header = document.querySelector('.header');
    if (!header) return ['no header'];
    const box = header.getBoundingClientRect();
    if (box.right > window.innerWidth + 1) found.push(`the header runs past the view's edge (${box.right} > ${window.innerWidth})`);
    const name = (e: Element) => e.getAttribute('data-testid') ?? e.className;
    const shown = [...header.children].filter((e) => e.getBoundingClientRect().width > 0 && !e.classList.contains('header-spacer'));
    for (const e of shown) {
      const r = e.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) found.push(`${name(e)} sticks out of the header`);
    }
    for (let i = 0; i < shown.length; i++) {
      for (let j = i + 1; j < shown.length; j++) {
        const a = shown[i]!.getBoundingClientRect();
        const b = shown[j]!.getBoundingClientRect();
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push(`${name(shown[i]!)} overlaps ${name(shown[j]!)}`);
      }
    }
    const chip = document.querySelector('[data-testid="worktree-branch"]');
    const chipName = chip?.querySelector('.header-branch-name');
    if (!chip || !chipName) found.push('no branch chip');
    else {
      const r = chip.getBoundingClientRect();
      if (chipName.scrollWidth > chipName.clientWidth + 1) found.push(`the branch "${chipName.textContent}" is cut in its chip`);
      if (r.left < 0 || r.right > window.innerWidth + 1) found.push('the branch chip runs past the view\'s edge');
      if (r.top < box.bottom - 1) found.push('the branch chip overlaps the header');
    }
    for (const id of ['worktree-review', 'worktree-keep', 'worktree-discard', 'new-chat', 'show-sessions']) {
      const button = header.querySelector(`[data-testid="${id}"]`);
      const r = button?.getBoundingClientRect();
      if (!r) found.push(`no ${id} button`);
      else if (r.width < 16 || r.height < 16) found.push(`the ${id} button is squeezed to ${r.width}×${r.height}`);
    }
    // The title may end in "…" (it has a tooltip), but not vanish.
    const title = header.querySelector('.header-title');
    if (!title || title.getBoundingClientRect().width < 24) found.push('the title is squeezed away');
    return found;
  });
}

/** What is cut or drawn over something else in the sessions list's rows, in words (empty when nothing is). */
async function rowProblems(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const found: string[] = [];
    const within = (inner: DOMRect, outer: DOMRect) => inner.left >= outer.left - 1 && inner.right <= outer.right + 1 && inner.top >= outer.top - 1 && inner.bottom <= outer.bottom + 1;
    const overflows = (e: Element) => e.scrollWidth > e.clientWidth + 1;
    for (const row of document.querySelectorAll('[data-testid="session-row"]')) {
      const item = row.querySelector('[data-testid="session-item"]');
      const title = row.querySelector('.session-title')?.textContent ?? '?';
      if (!item) continue;
      const box = item.getBoundingClientRect();
      if (box.right > window.innerWidth + 1) found.push(`"${title}": the row runs past the view's edge`);
      const parts = [...item.children].filter((e) => e.getBoundingClientRect().width > 0);
      for (const part of parts) {
        if (!within(part.getBoundingClientRect(), box)) found.push(`"${title}": ${part.className} sticks out of its row`);
      }
      for (let i = 0; i < parts.length; i++) {
        for (let j = i + 1; j < parts.length; j++) {
          const a = parts[i]!.getBoundingClientRect();
          const b = parts[j]!.getBoundingClientRect();
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push(`"${title}": ${parts[i]!.className} overlaps ${parts[j]!.className}`);
        }
      }
      const activity = item.querySelector('[data-testid="session-activity"]');
      if (activity) {
        if (overflows(activity)) found.push(`"${title}": the state "${activity.textContent}" is cut`);
        const icon = activity.querySelector('.codicon')?.getBoundingClientRect();
        if (!icon || icon.width < 8) found.push(`"${title}": the state has no icon`);
      }
      for (const piece of item.querySelectorAll('.session-meta > span, [data-testid="session-branch"]')) {
        if (overflows(piece) || !within(piece.getBoundingClientRect(), box)) found.push(`"${title}": "${piece.textContent}" is cut`);
      }
    }
    return found;
  });
}

/** Waits until the pickers wear the new theme's colours. */
async function pickersFollowTheme(frame: Frame, theme: string): Promise<void> {
  const wearing = () => {
    const picker = document.querySelector('[data-testid="model-picker"]');
    if (!picker) return 'no picker';
    const probe = document.createElement('span');
    probe.style.background = 'var(--vscode-dropdown-background)';
    document.body.append(probe);
    const wanted = getComputedStyle(probe).backgroundColor;
    probe.remove();
    const shown = getComputedStyle(picker).backgroundColor;
    return shown === wanted ? '' : `the model picker is ${shown}, the theme says ${wanted}`;
  };
  // The page gets the new theme's variables a little after the switch: poll, frame by frame.
  const deadline = Date.now() + 5_000;
  let problem = await frame.evaluate(wearing);
  while (problem && Date.now() < deadline) {
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    problem = await frame.evaluate(wearing);
  }
  assert.strictEqual(problem, '', `in ${theme}`);
}

for (const language of LANGUAGES) {
  describe(`how the several-agents UI looks in code-server, in ${language.name}`, () => {
    const rig = useChatRig({
      openChat: false,
      scratchDir: SCRATCH,
      prepare: ({ workspace }) => {
        git(workspace, 'init', '-q');
        git(workspace, 'commit', '-q', '--allow-empty', '-m', 'base');
      },
      cleanup: ({ workspace }) => {
        setWorkspaceSetting(workspace, 'workbench.colorTheme', undefined);
        const listed = git(workspace, 'worktree', 'list', '--porcelain');
        for (const block of listed.split('\n\n').filter((b) => b.includes(`branch refs/heads/keel/${language.branch}`))) {
          const path = /^worktree (.+)$/m.exec(block)?.[1];
          if (path) git(workspace, 'worktree', 'remove', '--force', path);
        }
        rmSync(join(workspace, '.git'), { recursive: true, force: true });
      },
    });
    const shots = join(process.cwd(), 'test-results', 'agents-look');
    let frame: Frame;

    before(async function () {
      this.timeout(240_000);
      if (language.locale) {
        // Without a CJK font Chinese is drawn as boxes, and every measurement would be of boxes.
        const fonts = execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim();
        assert.ok(fonts, 'no font with Chinese glyphs is installed (fc-list :lang=zh is empty): install fonts-wqy-microhei');
        const { url } = e2eEnv();
        await rig.page.context().addCookies([{ name: 'vscode.nls.locale', value: language.locale, url }]);
        await openWorkbench(rig.page, url);
        assert.strictEqual(await rig.page.evaluate(() => (globalThis as { _VSCODE_NLS_LANGUAGE?: string })._VSCODE_NLS_LANGUAGE), language.locale);
      }
      await rig.chat.open();
      frame = await keelContentFrame(rig.page);
      mkdirSync(shots, { recursive: true });
      const { prompts } = language;
      rig.server.load({
        turns: [
          // Each answer waits for its gate, so the run ends once the person is in another chat.
          { ...reply.text('The notes are summarised.'), match: { lastUserIncludes: prompts.finished }, gate: 'finished' },
          { ...reply.status(400), match: { lastUserIncludes: prompts.failed }, gate: 'failed' },
          { ...reply.tool('write', { file_path: `${SCRATCH}/later.md`, content: 'later\n' }), match: { lastUserIncludes: prompts.approval } },
          { ...reply.hang(), match: { lastUserIncludes: prompts.running } },
          { ...reply.text('The date test is fixed on its branch.'), match: { lastUserIncludes: prompts.worktree } },
        ],
      });
      for (const state of ['finished', 'failed'] as const) {
        await rig.chat.send(prompts[state]);
        await rig.chat.newChat();
        rig.server.open(state);
      }
      await rig.chat.send(prompts.approval);
      await rig.chat.newChat();
      await rig.chat.send(prompts.running);
      await rig.chat.newChat();

      const input = rig.chat.composer();
      await input.click();
      await input.fill(`/worktree ${language.branch}`);
      await input.press('Enter');
      await rig.chat.frame.getByTestId('worktree-branch').filter({ hasText: `keel/${language.branch}` }).waitFor({ timeout: TIMEOUT });
      await rig.chat.send(prompts.worktree);
      await rig.chat.byRole('assistant').filter({ hasText: 'The date test is fixed on its branch.' }).waitFor({ timeout: TIMEOUT });

      // The badge on the Keel icon counts the approval waiting in the background.
      const keelItem = rig.page.locator('.part.activitybar .action-item').filter({ has: rig.page.locator('a.action-label[aria-label^="Keel"]') });
      await keelItem.locator('.badge-content', { hasText: '1' }).waitFor({ timeout: TIMEOUT });
      // Every state is on the list before any test looks at it.
      await rig.chat.frame.getByTestId('show-sessions').click();
      for (const [state, prompt] of [['finished', prompts.finished], ['failed', prompts.failed], ['approval', prompts.approval], ['running', prompts.running]] as const) {
        await rig.chat.frame.getByTestId('session-row').filter({ hasText: prompt }).locator(`[data-testid="session-activity"][data-activity="${state}"]`).waitFor({ timeout: TIMEOUT });
      }
      await rig.chat.frame.getByTestId('session-row').filter({ hasText: prompts.worktree }).getByTestId('session-branch').waitFor({ timeout: TIMEOUT });
      await rig.chat.frame.getByTestId('show-sessions').click();
      await rig.chat.composer().waitFor({ timeout: TIMEOUT });
    });

    async function showPanel(panel: 'chat' | 'sessions'): Promise<void> {
      const showing = await rig.chat.frame.getByTestId('sessions-list').count();
      if ((panel === 'sessions') !== showing > 0) await rig.chat.frame.getByTestId('show-sessions').click();
      if (panel === 'sessions') await rig.chat.frame.getByTestId('session-row').first().waitFor({ timeout: TIMEOUT });
      else await rig.chat.composer().waitFor({ timeout: TIMEOUT });
    }

    async function screenshot(name: string): Promise<void> {
      const box = await rig.page.locator('.part.sidebar').boundingBox();
      assert.ok(box, 'the side bar is showing');
      await rig.page.screenshot({ path: join(shots, `${language.locale ?? 'en'}-${name}.png`), clip: box });
    }

    for (const [theme, kind] of THEMES) {
      // Narrow after wide: what was laid out for the wider view must follow.
      for (const width of [500, 220]) {
        it(`cuts and covers nothing at ${width} px in ${theme}, with no serious accessibility problem`, async function () {
          this.timeout(90_000);
          await useTheme(rig.workspace, frame, theme, kind);
          await pickersFollowTheme(frame, theme);
          await setSidebarWidth(rig.page, frame, width);
          const slug = `${kind.replace('vscode-', '')}-${width}`;

          await showPanel('chat');
          await screenshot(`worktree-${slug}`);
          assert.deepStrictEqual(await headerProblems(frame), [], `the worktree conversation's header at ${width} px`);
          const inChat = await seriousViolations(frame);
          assert.deepStrictEqual(inChat, [], `axe-core on the worktree conversation in ${theme}:\n${JSON.stringify(inChat, null, 2)}`);

          await showPanel('sessions');
          await screenshot(`sessions-${slug}`);
          assert.deepStrictEqual(await rowProblems(frame), [], `the sessions list at ${width} px`);
          const states = await rig.chat.frame.getByTestId('session-activity').evaluateAll((all) => all.map((e) => e.getAttribute('data-activity')).sort());
          assert.deepStrictEqual(states, ['approval', 'failed', 'finished', 'running']);
          const date = await rig.chat.frame.locator('.session-meta > span').first().innerText();
          assert.match(date, language.date, `the date in ${language.name}`);
          const inList = await seriousViolations(frame);
          assert.deepStrictEqual(inList, [], `axe-core on the sessions list in ${theme}:\n${JSON.stringify(inList, null, 2)}`);
          await showPanel('chat');
        });
      }
    }
  });
}
