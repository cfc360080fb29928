import { lineDiffStats } from '../../src/chat/parts/lineDiffStats';
import type { RunState } from '../../src/protocol/sessionState';
import { createChatRig } from '../unit/chat/chatHarness';
import type { ChatRig, Page } from '../unit/chat/chatHarness';
import type { Bench, BenchSuite } from './benchTypes';
import { spawnScriptedServer } from './scriptedServerProcess';
import type { ServerProcess } from './scriptedServerProcess';

const TOKENS = 1000;

interface Chat {
  server: ServerProcess;
  rig: ChatRig;
  page: Page;
}

async function openChat(): Promise<Chat> {
  const server = await spawnScriptedServer();
  await server.load({ turns: [], fallback: { tokens: TOKENS, chunkSize: 1 } });
  const rig = createChatRig({ baseUrl: server.baseURL, model: 'scripted-model' });
  const page = rig.openPage();
  await until(() => page.store.snapshot !== undefined);
  return { server, rig, page };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

/** Host CPU (this process: controller, Project, loop, bus and the mirrored page) for one message of TOKENS streamed tokens. */
async function oneMessage({ page }: Chat): Promise<number> {
  const from = page.store.events.length;
  const before = process.cpuUsage();
  await page.bus.request('session.send', { text: 'stream' });
  await until(() => {
    const states = page.store.events.slice(from).filter((e) => e.name === 'state').map((e) => e.data as RunState);
    const started = states.findIndex((s) => s.running);
    return started >= 0 && states.slice(started + 1).some((s) => !s.running);
  });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

const a = Array.from({ length: 50_000 }, (_, i) => `line ${i}`).join('\n');
const b = Array.from({ length: 50_000 }, (_, i) => `other ${i}`).join('\n');

const benches: Bench<any>[] = [
  {
    name: `one message, ${TOKENS} tokens streamed one per chunk, through the chat host and bus (host CPU)`,
    target: '< 30 ms',
    limit: 30,
    runs: 9,
    warmup: 2,
    setup: openChat,
    run: oneMessage,
    teardown: async ({ server, rig }: Chat) => {
      await rig.dispose();
      server.close();
    },
  } satisfies Bench<Chat>,
  {
    name: 'approval card +N −M for a rewrite of a 50,000-line file (lineDiffStats)',
    target: '< 100 ms',
    limit: 100,
    run: () => {
      const stats = lineDiffStats(a, b);
      if (stats.added !== 50_000) throw new Error('wrong count');
    },
  },
];

export const suite: BenchSuite = { name: 'chatHost', benches };
