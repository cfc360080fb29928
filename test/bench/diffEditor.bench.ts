// A proposed edit of a 10,000-line file in code-server (packaged production build), timed in
// Chromium: from the tool call's card appearing in the chat to the diff editor painting the
// proposed line. That span holds the tool's preview (reading the file, checking it is
// fresh, computing the change), the approval request, opening both sides of the diff and
// Monaco's first render of them. The TypeScript row adds what VS Code's TypeScript features
// do with the two 10,000-line documents (parsed and highlighted as the diff opens).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { keelContentFrame } from '../e2e/harness/keelView.ts';
import type { Bench, BenchSuite } from './benchTypes';
import { spawnScriptedServer } from './scriptedServerProcess';
import type { ServerProcess } from './scriptedServerProcess';
import { startLab, stopLab } from './vscode/codeServerLab.ts';
import type { Lab } from './vscode/codeServerLab.ts';
import { showKeel } from './vscode/workbenchActions.ts';

const LINES = 10_000;
/** A unique line near the top, so the diff editor shows the change without scrolling. */
const EDITED_INDEX = 20;

interface DiffLab extends Lab {
  model: ServerProcess;
  frame: Frame;
  round: number;
}

function sourceLine(i: number): string {
  switch (i % 5) {
    case 0:
      return `export function handler${i}(input: number): number {`;
    case 1:
      return `  const value = input * ${i % 97};`;
    case 2:
      return '  if (value < 0) return 0;';
    case 3:
      return '  return value;';
    default:
      return '}';
  }
}

let shared: Promise<DiffLab> | undefined;

function diffLab(): Promise<DiffLab> {
  shared ??= (async () => {
    const model = await spawnScriptedServer();
    try {
      const lab = await startLab({
        settings: { 'keel.baseUrl': model.baseURL, 'keel.model': 'scripted-model', 'keel.sessionTitles': 'firstPrompt', 'workbench.editor.enablePreview': true },
        prepare: ({ workspace }) => {
          const text = `${Array.from({ length: LINES }, (_, i) => sourceLine(i)).join('\n')}\n`;
          for (const name of ['big.txt', 'big.ts']) writeFileSync(join(workspace, name), text);
        },
      });
      await showKeel(lab.page);
      const frame = await keelContentFrame(lab.page);
      return { ...lab, model, frame, round: 0 };
    } catch (err) {
      model.close();
      throw err;
    }
  })();
  return shared;
}

async function closeDiffLab(): Promise<void> {
  const lab = shared;
  shared = undefined;
  const started = await lab?.catch(() => undefined);
  if (!started) return;
  started.model.close();
  await stopLab(started);
}

/** Records, in the page's clock (epoch ms), when an element matching `selector` first shows `text`. */
async function armMark(target: Page | Frame, key: string, selector: string, text: string): Promise<void> {
  await target.evaluate(
    ({ key, selector, text }) => {
      const marks = ((globalThis as { __keelMarks?: Record<string, number> }).__keelMarks ??= {});
      delete marks[key];
      // Monaco renders spaces as no-break spaces.
      const found = (): boolean => [...document.querySelectorAll(selector)].some((e) => (e.textContent ?? '').replace(/\u00a0/g, ' ').includes(text));
      const observer = new MutationObserver(() => {
        if (!found()) return;
        marks[key] = performance.timeOrigin + performance.now();
        observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { key, selector, text },
  );
}

async function readMark(target: Page | Frame, key: string, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const at = await target.evaluate((key) => (globalThis as { __keelMarks?: Record<string, number> }).__keelMarks?.[key], key);
    if (typeof at === 'number') return at;
    if (Date.now() > deadline) throw new Error(`${key} never happened`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function toDiff(file: string, what: string): Bench<DiffLab> {
  return {
    name: `tool call → diff editor shown, ${LINES.toLocaleString('en')}-line ${what} (card in chat to proposal painted)`,
    target: '< 300 ms',
    limit: 300,
    runs: 7,
    warmup: 2,
    setup: diffLab,
    async run(lab) {
      const round = ++lab.round;
      const before = sourceLine(EDITED_INDEX);
      const after = `${before} // round ${round}`;
      await lab.model.load({
        turns: [
          { toolCalls: [{ name: 'read', arguments: { file_path: file, limit: 40 } }] },
          { toolCalls: [{ name: 'edit', arguments: { file_path: file, old_string: before, new_string: after } }] },
          { text: 'left as it was' },
        ],
      });
      const { frame, page } = lab;
      await armMark(frame, 'editCard', '[data-testid="tool-card"]', 'edit');
      await armMark(page, 'diffPainted', '.monaco-diff-editor .editor.modified .view-line', `// round ${round}`);
      const input = frame.getByTestId('composer-input');
      await input.fill(`edit round ${round}`);
      await input.press('Enter');
      const cardAt = await readMark(frame, 'editCard');
      const paintedAt = await readMark(page, 'diffPainted');
      // Rejected, so the file stays as it is for the next round.
      await frame.getByTestId('approval-card').getByTestId('reject').click();
      await frame.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'left as it was' }).waitFor({ timeout: 30_000 });
      await frame.getByTestId('new-chat').click();
      return paintedAt - cardAt;
    },
  };
}

const plain = toDiff('big.txt', 'text file');
/** With TypeScript's language features at work on the proposal too; the last bench stops the lab. */
const typescript: Bench<DiffLab> = { ...toDiff('big.ts', 'TypeScript file'), teardown: closeDiffLab };

export const suite: BenchSuite = { name: 'diff editor', benches: [plain, typescript] };
