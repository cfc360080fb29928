// Keel's cost to the extension host, measured in code-server with the packaged production
// build (.vsix). Every run reloads the window, which starts a new extension host, so each
// activation is a first one.
import type { Bench, BenchSuite } from './benchTypes';
import { sharedLab } from './vscode/codeServerLab.ts';
import type { Lab } from './vscode/codeServerLab.ts';
import { currentExtensionHost, settledRssMb, waitForIdle } from './vscode/extensionHostProcess.ts';
import { activationTimeMs, reloadWithoutKeel, showKeel } from './vscode/workbenchActions.ts';
import { runCommand } from '../e2e/harness/workbench.ts';

const lab = sharedLab();
let previousHost: number | undefined;

/** A fresh extension host that has finished starting up (built-in extensions included), Keel not active. */
async function freshHost(state: Lab): Promise<number> {
  await reloadWithoutKeel(state.page);
  const pid = await currentExtensionHost(state.server.pid, previousHost);
  previousHost = pid;
  await waitForIdle(pid);
  return pid;
}

/**
 * Activation through a command that needs nothing else ("Keel: Stop" with nothing running
 * only says so in the status bar), so what is measured is activation alone: the chat's
 * runtime (core, AI SDK) loads later, on first use.
 */
async function activateKeel(state: Lab): Promise<void> {
  await runCommand(state.page, 'Keel: Stop');
  await state.page.locator('.part.statusbar', { hasText: 'Keel: nothing is running' }).waitFor({ timeout: 30_000 });
}

const activation: Bench<Lab> = {
  name: 'activation time (VS Code: load code + activate())',
  target: '< 50 ms',
  limit: 50,
  runs: 5,
  warmup: 1,
  setup: () => lab.get(),
  async run(state) {
    await freshHost(state);
    await activateKeel(state);
    return activationTimeMs(state.page);
  },
};

const memory: Bench<Lab> = {
  name: 'extension host RSS added by activation',
  target: '< 30 MB',
  limit: 30,
  unit: 'MB',
  runs: 5,
  warmup: 1,
  setup: () => lab.get(),
  async run(state) {
    const pid = await freshHost(state);
    const before = await settledRssMb(pid);
    await activateKeel(state);
    const after = await settledRssMb(pid);
    return after - before;
  },
};

const memoryWithView: Bench<Lab> = {
  name: '(info) RSS added by activation + opening the chat (runtime, core)',
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
