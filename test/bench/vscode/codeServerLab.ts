// A code-server with the packaged production build of Keel installed, a copy of the sample
// workspace, a KEEL_HOME of its own, and Chromium on the workbench: what the VS Code
// benches measure in. Built and started once per bench file, stopped by the last bench.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { LaunchedChromium } from '../../../scripts/lib/chromium.mjs';
import { waitForWorkbench } from '../../e2e/harness/workbench.ts';
import { repoRoot, rig } from './rigScripts.ts';
import type { LaunchedServer } from './rigScripts.ts';

export interface Lab {
  server: LaunchedServer;
  browser: LaunchedChromium;
  page: Page;
  workspace: string;
  keelHome: string;
  vsix: string;
}

export interface LabOptions {
  /** User settings, e.g. keel.baseUrl of a scripted server. */
  settings?: Record<string, unknown>;
  /** Runs before the server starts, e.g. to store sessions under KEEL_HOME. */
  prepare?(paths: { workspace: string; keelHome: string }): void | Promise<void>;
  /** Other extensions' folders, installed next to Keel as they are. */
  linkExtensions?: string[];
  /** false: the same server without Keel, to measure what Keel adds against. */
  keel?: boolean;
}

export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const launch = await rig.launch();
  const packaging = await rig.packaging();
  const runDir = launch.makeRunDir('bench');
  let server: LaunchedServer | undefined;
  let browser: LaunchedChromium | undefined;
  const steps = await rig.steps();
  const stopOnExit = (): void => {
    // run.mjs ends with process.exit: a server still running would outlive it.
    if (server) steps.killGroup(server.pid, 'SIGKILL');
  };
  try {
    await packaging.buildExtension(repoRoot, { production: true });
    const vsix = await packaging.packageVsix(repoRoot, { out: join(runDir, 'keel.vsix') });
    const workspace = launch.copyWorkspace(join(repoRoot, 'test', 'fixtures', 'workspaces', 'sample'), runDir);
    const keelHome = join(runDir, 'keel-home');
    mkdirSync(keelHome, { recursive: true });
    await options.prepare?.({ workspace, keelHome });
    // User settings: a workspace's own settings may not point Keel at a model endpoint.
    server = await launch.launchServer({ kind: 'code-server', runDir, folder: workspace, vsix: options.keel === false ? [] : [vsix], env: { KEEL_HOME: keelHome }, settings: options.settings ?? {}, linkExtensions: options.linkExtensions ?? [] });
    process.once('exit', stopOnExit);
    browser = await (await rig.chromium()).launchChromium();
    await browser.page.goto(server.url, { timeout: 60_000 });
    await waitForWorkbench(browser.page);
    return { server, browser, page: browser.page, workspace, keelHome, vsix };
  } catch (err) {
    await browser?.close();
    await server?.stop({ removeRunDir: true });
    rmSync(runDir, { recursive: true, force: true });
    throw err;
  }
}

export async function stopLab(lab: Lab | undefined): Promise<void> {
  if (!lab) return;
  try {
    await lab.browser.close();
  } finally {
    await lab.server.stop({ removeRunDir: true });
  }
}

/** One lab shared by the benches of a file: started by the first setup, stopped by `close()`. */
export function sharedLab(options: LabOptions = {}): { get(): Promise<Lab>; close(): Promise<void> } {
  let started: Promise<Lab> | undefined;
  return {
    get: () => (started ??= startLab(options)),
    async close() {
      const lab = started;
      started = undefined;
      // A lab that failed to start was reported by the setup that asked for it.
      if (lab) await stopLab(await lab.catch(() => undefined));
    },
  };
}
