// Keel's chat view in code-server (packaged production build), measured in Chromium:
// opening it, opening a long stored conversation, and the main thread while a reply streams.
import type { CDPSession, Page } from 'playwright-core';
import { keelContentFrame, keelFrame } from '../e2e/harness/keelView.ts';
import { runCommand } from '../e2e/harness/workbench.ts';
import type { Bench, BenchSuite } from './benchTypes';
import { fillerWords } from '../fixtures/scriptedServer/fillerText.ts';
import { spawnScriptedServer } from './scriptedServerProcess';
import type { ServerProcess } from './scriptedServerProcess';
import { startLab, stopLab } from './vscode/codeServerLab.ts';
import type { Lab } from './vscode/codeServerLab.ts';
import { currentExtensionHost, waitForCurrentHostIdle } from './vscode/extensionHostProcess.ts';
import { armClickToContent, readTime, recordMarkerPaint, recordPointerDown } from './vscode/pageTiming.ts';
import { LAST_MESSAGE_MARKER, writeLongConversation } from './vscode/storedConversation.ts';
import { KEEL_ACTIVITY_ITEM, reloadWithoutKeel, showKeel } from './vscode/workbenchActions.ts';

const STORED_MESSAGES = 2000;
const STREAM_TOKENS = 5000;
const TOKENS_PER_SECOND = 200;

interface ViewLab extends Lab {
  model: ServerProcess;
  sessionId: string;
  cdp: CDPSession;
}

let shared: Promise<ViewLab> | undefined;

/** One code-server for the file: a scripted model in its own process, a 2,000-message conversation stored. */
function viewLab(): Promise<ViewLab> {
  shared ??= (async () => {
    const model = await spawnScriptedServer();
    let sessionId = '';
    try {
      const lab = await startLab({
        settings: { 'keel.baseUrl': model.baseURL, 'keel.model': 'scripted-model', 'keel.sessionTitles': 'firstPrompt' },
        prepare: ({ keelHome, workspace }) => {
          sessionId = writeLongConversation(keelHome, workspace, STORED_MESSAGES);
        },
      });
      const cdp = await lab.page.context().newCDPSession(lab.page);
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      return { ...lab, model, sessionId, cdp };
    } catch (err) {
      model.close();
      throw err;
    }
  })();
  return shared;
}

async function closeViewLab(): Promise<void> {
  const lab = shared;
  shared = undefined;
  // A lab that failed to start was reported by the setup that asked for it.
  const started = await lab?.catch(() => undefined);
  if (!started) return;
  started.model.close();
  await stopLab(started);
}

async function keelShowing(page: Page): Promise<boolean> {
  return page.locator('.part.sidebar [id="workbench.view.extension.keel"]').isVisible();
}

/** Clicks Keel's activity-bar item; returns ms from the pointerdown to the chat's first painted content. */
async function clickToFirstContent(page: Page): Promise<number> {
  await armClickToContent(page, KEEL_ACTIVITY_ITEM);
  await page.locator(KEEL_ACTIVITY_ITEM).click();
  const clickedAt = await readTime(async () => page, 'pointerDownAt', 0);
  const paintedAt = await readTime(async () => page, 'firstContentAt', 3_000);
  return paintedAt - clickedAt;
}

const coldOpen: Bench<ViewLab> = {
  name: 'click Keel icon → first chat content (new window: activation, runtime, core)',
  target: '< 400 ms',
  limit: 400,
  runs: 5,
  warmup: 1,
  setup: viewLab,
  async run(lab) {
    // The old window's host may outlive the reload for a moment: the one to wait for is the next.
    const previousHost = await currentExtensionHost(lab.server.pid, undefined);
    await reloadWithoutKeel(lab.page);
    // Startup work of the new window and extension host is not Keel's: wait until it is done.
    await waitForCurrentHostIdle(lab.server.pid, previousHost);
    await lab.page.waitForTimeout(1_000);
    return clickToFirstContent(lab.page);
  },
};

const warmOpen: Bench<ViewLab> = {
  name: '(info) click Keel icon → first chat content (view opened before in this window)',
  target: 'info',
  limit: Number.POSITIVE_INFINITY,
  runs: 5,
  warmup: 1,
  setup: viewLab,
  async run(lab) {
    if (!(await keelShowing(lab.page))) await showKeel(lab.page);
    await runCommand(lab.page, 'View: Show Explorer');
    await keelFrame(lab.page).getByTestId('composer-input').waitFor({ state: 'detached' });
    await lab.page.waitForTimeout(1_000);
    return clickToFirstContent(lab.page);
  },
};

const longConversation: Bench<ViewLab> = {
  name: `open a stored ${STORED_MESSAGES.toLocaleString('en')}-message conversation → last message painted`,
  target: '< 500 ms',
  limit: 500,
  runs: 5,
  warmup: 1,
  setup: viewLab,
  async run(lab) {
    const { page } = lab;
    if (!(await keelShowing(page))) await showKeel(page);
    const chat = keelFrame(page);
    // Another conversation first, so the stored one is read from disk again.
    await chat.getByTestId('new-chat').click();
    await chat.getByTestId('message').first().waitFor({ state: 'detached' });
    await chat.getByTestId('show-sessions').click();
    const item = chat.getByTestId('session-item').first();
    await item.waitFor();
    const frame = await keelContentFrame(page);
    await recordPointerDown(frame, '[data-testid="session-item"]');
    await recordMarkerPaint(frame, '[data-testid="message"]', LAST_MESSAGE_MARKER);
    await item.click();
    const clickedAt = await readTime(async () => frame, 'pointerDownAt', 0);
    const paintedAt = await readTime(async () => frame, 'markerAt', 2_000);
    return paintedAt - clickedAt;
  },
};

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const task = metrics.find((m) => m.name === 'TaskDuration');
  if (!task) throw new Error('Chromium reported no TaskDuration metric');
  return task.value;
}

/** Waits, inside the webview, for the reply to be marked done: one attribute observer, no polling. */
async function waitForReplyDone(page: Page): Promise<number> {
  const frame = await keelContentFrame(page);
  return frame.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            const element = record.target as Element;
            if (element.getAttribute('data-role') === 'assistant' && element.getAttribute('data-status') === 'done') {
              observer.disconnect();
              resolve((element.textContent ?? '').split(/\s+/).length);
              return;
            }
          }
        });
        observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-status'] });
      }),
  );
}

/**
 * A reply of STREAM_TOKENS tokens as a model writes one: paragraphs of about 60 words, sent
 * one token (4 characters) per chunk, paced by the scripted server at TOKENS_PER_SECOND.
 */
function paragraphReply(): { text: string; chunkSize: number; tokensPerSecond: number } {
  const words = fillerWords((STREAM_TOKENS * 4) / 6).join('');
  const sentences = words.split(/(?<=\.) /);
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += 5) paragraphs.push(sentences.slice(i, i + 5).join(' '));
  const text = paragraphs.join('\n\n').slice(0, STREAM_TOKENS * 4);
  return { text, chunkSize: 4, tokensPerSecond: TOKENS_PER_SECOND };
}

/**
 * Share of the main thread's time spent in tasks while the reply streams, from Chromium's
 * Performance.getMetrics TaskDuration (CDP, on the workbench page). In code-server the
 * webview's frames are same-origin with the workbench and run on its renderer's main thread,
 * so this is the thread the chat runs on, and it includes what the workbench does for the
 * stream (relaying messages into the webview, the status bar): an upper bound for the
 * webview's own share.
 */
async function busyWhileStreaming(lab: ViewLab, turn: Record<string, unknown>, expectedWords: number): Promise<number> {
  const { page } = lab;
  if (!(await keelShowing(page))) await showKeel(page);
  const chat = keelFrame(page);
  await lab.model.load({ turns: [], fallback: turn });
  await chat.getByTestId('new-chat').click();
  const input = chat.getByTestId('composer-input');
  await input.fill('stream a long answer');
  const done = waitForReplyDone(page);
  const busyBefore = await taskSeconds(lab.cdp);
  const started = performance.now();
  await input.press('Enter');
  const words = await done;
  const wallSeconds = (performance.now() - started) / 1000;
  const busy = (await taskSeconds(lab.cdp)) - busyBefore;
  if (words < expectedWords * 0.95) throw new Error(`the reply had ${words} words, not the ~${expectedWords} streamed`);
  return (busy / wallSeconds) * 100;
}

const streamingBusy: Bench<ViewLab> = {
  name: `main thread busy while ${STREAM_TOKENS.toLocaleString('en')} tokens stream at ${TOKENS_PER_SECOND}/s (paragraphs)`,
  target: '< 20 %',
  limit: 20,
  unit: '%',
  runs: 5,
  warmup: 1,
  setup: viewLab,
  run: (lab) => {
    const turn = paragraphReply();
    return busyWhileStreaming(lab, turn, turn.text.split(/\s+/).length);
  },
};

const streamingOneParagraph: Bench<ViewLab> = {
  name: `(info) the same, ${STREAM_TOKENS.toLocaleString('en')} filler words in one paragraph (worst case)`,
  target: 'info',
  limit: Number.POSITIVE_INFINITY,
  unit: '%',
  runs: 3,
  warmup: 0,
  setup: viewLab,
  run: (lab) => busyWhileStreaming(lab, { tokens: STREAM_TOKENS, tokensPerSecond: TOKENS_PER_SECOND }, STREAM_TOKENS),
};

const idleBusy: Bench<ViewLab> = {
  name: '(info) the same thread with the chat open and nothing streaming (10 s)',
  target: 'info',
  limit: Number.POSITIVE_INFINITY,
  unit: '%',
  runs: 3,
  warmup: 0,
  setup: viewLab,
  async run(lab) {
    if (!(await keelShowing(lab.page))) await showKeel(lab.page);
    const busyBefore = await taskSeconds(lab.cdp);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const busy = (await taskSeconds(lab.cdp)) - busyBefore;
    return (busy / ((performance.now() - started) / 1000)) * 100;
  },
  teardown: closeViewLab,
};

export const suite: BenchSuite = {
  name: 'vscode view',
  benches: [coldOpen, warmOpen, longConversation, streamingBusy, streamingOneParagraph, idleBusy],
};
