// Keel's cost to the extension host, measured in code-server with the packaged production
// build (.vsix). Every run reloads the window, which starts a new extension host, so each
// activation is a first one.
import type { Bench, BenchSuite } from './benchTypes';
import { sharedLab } from './vscode/codeServerLab.ts';
import type { Lab } from './vscode/codeServerLab.ts';
import { settledRssMb, waitForCurrentHostIdle } from './vscode/extensionHostProcess.ts';
import { activationTimeMs, reloadWithoutKeel, showKeel } from './vscode/workbenchActions.ts';

const lab = sharedLab();
// The same server and workspace without Keel: what a fresh extension host weighs anyway.
const plainLab = sharedLab({ keel: false });
const previousHosts = new WeakMap<Lab, number>();

/** A fresh extension host that has finished starting up (built-in extensions, and Keel by onStartupFinished). */
async function freshHost(state: Lab, keelInstalled = true): Promise<number> {
  await reloadWithoutKeel(state.page, { keelInstalled });
  const pid = await waitForCurrentHostIdle(state.server.pid, previousHosts.get(state));
  previousHosts.set(state, pid);
  return pid;
}

// Keel activates on onStartupFinished: a fresh window's host has activated it by the time it is idle.
const activation: Bench<Lab> = {
  name: 'activation time (VS Code: load code + activate(), at startup)',
  target: '< 50 ms',
  limit: 50,
  runs: 5,
  warmup: 1,
  setup: () => lab.get(),
  async run(state) {
    await freshHost(state);
    return activationTimeMs(state.page);
  },
};

const memory: Bench<{ keel: Lab; plain: Lab }> = {
  name: 'extension host RSS added by Keel (fresh window with Keel active, less the same without Keel)',
  target: '< 30 MB',
  limit: 30,
  unit: 'MB',
  runs: 5,
  warmup: 1,
  setup: async () => ({ keel: await lab.get(), plain: await plainLab.get() }),
  async run({ keel, plain }) {
    const withKeel = await settledRssMb(await freshHost(keel));
    const without = await settledRssMb(await freshHost(plain, false));
    return withKeel - without;
  },
  teardown: () => plainLab.close(),
};

const memoryWithView: Bench<Lab> = {
  name: '(info) RSS added by opening the chat (runtime and core load then)',
  target: 'info',
  limit: Number.POSITIVE_INFINITY,
  unit: 'MB',
  runs: 5,
  warmup: 1,
  setup: () => lab.get(),
  async run(state) {
    const pid = await freshHost(state);
    const before = await settledRssMb(pid);
    await showKeel(state.page);
    const after = await settledRssMb(pid);
    return after - before;
  },
  teardown: () => lab.close(),
};

export const suite: BenchSuite = {
  name: 'vscode host',
  benches: [activation, memory, memoryWithView],
};
