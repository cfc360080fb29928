import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createChatRig } from '../unit/chat/chatHarness';
import type { ChatRig, Page } from '../unit/chat/chatHarness';
import type { Bench, BenchSuite } from './benchTypes';
import { spawnScriptedServer } from './scriptedServerProcess';
import type { ServerProcess } from './scriptedServerProcess';

// The model is the bottleneck in these runs: each reply is paced by the server (its own process).
const REPLY_TOKENS = 300;
const TOKENS_PER_SECOND = 600;
/** Conversations added on top of the first for the memory measure. */
const ADDED = 4;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface Window {
  server: ServerProcess;
  rig: ChatRig;
  page: Page;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function openWindow(fallback: Record<string, unknown>, maxConcurrentRuns = 8): Promise<Window> {
  const server = await spawnScriptedServer();
  await server.load({ turns: [], fallback });
  const rig = createChatRig({ baseUrl: server.baseURL, model: 'scripted-model' }, { controller: { maxConcurrentRuns: () => maxConcurrentRuns } });
  const page = rig.openPage();
  await until(() => page.store.snapshot?.config.modelConfigured === true);
  return { server, rig, page };
}

async function closeWindow({ server, rig }: Window): Promise<void> {
  await rig.dispose();
  server.close();
}

/** Starts `n` conversations, each in a new chat (the ones before keep running in the background). */
async function startRuns({ page, rig }: Window, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    if (i > 0 || rig.controller.messages().length > 0) await page.bus.request('session.new', {});
    await page.bus.request('session.send', { text: `task ${i}` });
  }
}

async function wallTime(window: Window, n: number): Promise<number> {
  const started = performance.now();
  await startRuns(window, n);
  await until(() => !window.rig.controller.isRunning);
  return performance.now() - started;
}

/** Heap and RSS (MB) added per conversation running beside the first, measured while all stream. */
async function addedMemory(): Promise<{ heap: number; rss: number }> {
  const window = await openWindow({ tokens: 4000, chunkSize: 1, tokensPerSecond: 200 });
  try {
    const streaming = (count: number) => Object.values(window.rig.controller.sessionActivities()).filter((s) => s === 'running').length === count;
    await startRuns(window, 1);
    await until(() => streaming(1) && window.rig.controller.messages().some((m) => m.role === 'assistant'));
    gc();
    const before = process.memoryUsage();
    await startRuns(window, ADDED);
    await until(() => streaming(1 + ADDED));
    // Each has streamed a while, so its state holds a real partial answer.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    gc();
    const after = process.memoryUsage();
    if (!streaming(1 + ADDED)) throw new Error('a run ended before the measure: make the replies longer');
    return { heap: (after.heapUsed - before.heapUsed) / ADDED / 2 ** 20, rss: (after.rss - before.rss) / ADDED / 2 ** 20 };
  } finally {
    await closeWindow(window);
  }
}

const benches: Bench<any>[] = [
  {
    name: `3 conversations running at once vs one (wall time ratio; replies of ${REPLY_TOKENS} tokens paced at ${TOKENS_PER_SECOND}/s by the model server)`,
    target: '< 1.3×',
    limit: 1.3,
    unit: '×',
    runs: 5,
    warmup: 1,
    setup: () => openWindow({ tokens: REPLY_TOKENS, chunkSize: 1, tokensPerSecond: TOKENS_PER_SECOND }),
    run: async (window: Window) => {
      const one = await wallTime(window, 1);
      const three = await wallTime(window, 3);
      return three / one;
    },
    teardown: closeWindow,
  } satisfies Bench<Window>,
  {
    name: `host heap added per additional conversation running (${ADDED} added beside one, all streaming)`,
    target: '< 5 MB',
    limit: 5,
    unit: 'MB',
    runs: 3,
    warmup: 0,
    run: async () => (await addedMemory()).heap,
  },
  {
    name: `host RSS added per additional conversation running (${ADDED} added beside one, all streaming)`,
    target: '< 10 MB',
    limit: 10,
    unit: 'MB',
    runs: 3,
    warmup: 0,
    run: async () => (await addedMemory()).rss,
  },
];

export const suite: BenchSuite = { name: 'backgroundChats', benches };
