// Keel's sessions in code-server (packaged production build), measured in Chromium: opening a
// 10,000-message conversation from the sessions panel, and the panel itself over 1,000 sessions.
import type { Page } from 'playwright-core';
import { keelContentFrame, keelFrame } from '../e2e/harness/keelView.ts';
import { SessionStore } from '../../src/core/session/sessionStore';
import type { Bench, BenchSuite } from './benchTypes';
import { startLab, stopLab } from './vscode/codeServerLab.ts';
import type { Lab } from './vscode/codeServerLab.ts';
import { readTime, recordMarkerPaint, recordPointerDown } from './vscode/pageTiming.ts';
import { LAST_MESSAGE_MARKER, writeLongConversation } from './vscode/storedConversation.ts';
import { showKeel } from './vscode/workbenchActions.ts';

const LONG_MESSAGES = 10_000;
const OTHER_SESSIONS = 1000;
/** The long conversation is written last, so it is the newest row; its title starts so. */
const NEWEST_TITLE = 'Question 1:';

let shared: Promise<Lab> | undefined;

function sessionsLab(): Promise<Lab> {
  shared ??= startLab({
    settings: { 'keel.baseUrl': 'http://127.0.0.1:9/v1', 'keel.model': 'scripted-model', 'keel.sessionTitles': 'firstPrompt' },
    prepare: ({ keelHome, workspace }) => {
      const store = new SessionStore({ home: keelHome, workspace: { root: workspace } });
      for (let i = 0; i < OTHER_SESSIONS - 1; i++) {
        const s = store.create();
        s.appendMessage({ role: 'user', content: `Conversation ${i}: how does the parser handle chunk ${i}?` });
        s.appendMessage({ role: 'assistant', content: `Chunk ${i} is flushed when a newline arrives.` });
        s.appendUsage({ inputTokens: 1200 + i, outputTokens: 80 });
        if (i % 3 === 0) s.appendConfig('title', `Parser chunk ${i}`);
        s.close();
      }
      writeLongConversation(keelHome, workspace, LONG_MESSAGES);
    },
  });
  return shared;
}

async function closeSessionsLab(): Promise<void> {
  const lab = shared;
  shared = undefined;
  const started = await lab?.catch(() => undefined);
  if (started) await stopLab(started);
}

async function keelShowing(page: Page): Promise<boolean> {
  return page.locator('.part.sidebar [id="workbench.view.extension.keel"]').isVisible();
}

/** The chat panel of the view, showing a new (empty) conversation. */
async function emptyChat(page: Page): Promise<void> {
  if (!(await keelShowing(page))) await showKeel(page);
  const chat = keelFrame(page);
  if (await chat.getByTestId('sessions-back').isVisible()) await chat.getByTestId('sessions-back').click();
  await chat.getByTestId('new-chat').click();
  await chat.getByTestId('message').first().waitFor({ state: 'detached', timeout: 30_000 });
}

const openLong: Bench<Lab> = {
  name: `open a stored ${LONG_MESSAGES.toLocaleString('en')}-message conversation from the sessions panel → last message painted`,
  target: '< 500 ms',
  limit: 500,
  runs: 5,
  warmup: 1,
  setup: sessionsLab,
  async run(lab) {
    const { page } = lab;
    // Another conversation first, so the stored one is read from disk again.
    await emptyChat(page);
    const chat = keelFrame(page);
    await chat.getByTestId('show-sessions').click();
    const item = chat.getByTestId('session-item').first();
    await item.waitFor({ timeout: 30_000 });
    const frame = await keelContentFrame(page);
    await recordPointerDown(frame, '[data-testid="session-item"]');
    await recordMarkerPaint(frame, '[data-testid="message"]', LAST_MESSAGE_MARKER);
    await item.click();
    const clickedAt = await readTime(async () => frame, 'pointerDownAt', 0);
    const paintedAt = await readTime(async () => frame, 'markerAt', 2_000);
    return paintedAt - clickedAt;
  },
};

const listSessions: Bench<Lab> = {
  name: `sessions list over ${OTHER_SESSIONS.toLocaleString('en')} sessions: click → first page painted`,
  target: '< 150 ms',
  limit: 150,
  runs: 7,
  warmup: 1,
  setup: sessionsLab,
  async run(lab) {
    const { page } = lab;
    await emptyChat(page);
    const frame = await keelContentFrame(page);
    await recordPointerDown(frame, '[data-testid="show-sessions"]');
    await recordMarkerPaint(frame, '[data-testid="session-item"]', NEWEST_TITLE);
    await keelFrame(page).getByTestId('show-sessions').click();
    const clickedAt = await readTime(async () => frame, 'pointerDownAt', 0);
    const paintedAt = await readTime(async () => frame, 'markerAt', 1_000);
    return paintedAt - clickedAt;
  },
};

const searchSessions: Bench<Lab> = {
  name: `(info) search ${OTHER_SESSIONS.toLocaleString('en')} sessions by message text in the panel: last key → result painted (after the 150 ms typing pause)`,
  target: 'info',
  limit: Number.POSITIVE_INFINITY,
  runs: 5,
  warmup: 1,
  setup: sessionsLab,
  async run(lab) {
    const { page } = lab;
    await emptyChat(page);
    const chat = keelFrame(page);
    await chat.getByTestId('show-sessions').click();
    await chat.getByTestId('session-item').first().waitFor({ timeout: 30_000 });
    const frame = await keelContentFrame(page);
    // The words are only in one old conversation's reply (message text), far below the first page.
    await recordMarkerPaint(frame, '[data-testid="session-item"]', 'Conversation 5:');
    await chat.getByTestId('sessions-search').click();
    await page.keyboard.type('chunk 5 is flushed');
    const typedAt = await frame.evaluate(() => performance.timeOrigin + performance.now());
    const paintedAt = await readTime(async () => frame, 'markerAt', 500);
    return paintedAt - typedAt;
  },
  teardown: closeSessionsLab,
};

export const suite: BenchSuite = {
  name: 'vscode sessions',
  benches: [openLong, listSessions, searchSessions],
};
