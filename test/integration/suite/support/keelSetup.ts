/// <reference types="mocha" />
// What every suite needs: Keel activated with its test hooks, a KEEL_HOME of its own for
// the run, and the model settings pointed at a scripted server (real HTTP, real AI SDK).
import * as assert from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { sessionsDir, workspaceKey } from '../../../../src/core/paths';
import type { KeelApi } from '../../../../src/vscode/keelApi';
import type { KeelTestApi } from '../../../../src/vscode/testHooks';

export const EXTENSION_ID = 'keel-dev.keel';
export const MODEL = 'scripted-model';

/**
 * The core reads KEEL_HOME from the extension host's environment each time it is built, so
 * setting it here, before any suite runs, keeps the run's sessions out of ~/.keel. A parent
 * process may pass its own (the rig forwards KEEL_* variables); then that one is used.
 */
export function keelHomeForRun(): string {
  const given = process.env.KEEL_HOME?.trim();
  if (given) return given;
  const home = mkdtempSync(join(tmpdir(), 'keel-home-'));
  process.env.KEEL_HOME = home;
  // A root hook: runs once after every suite of this run.
  after(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

export async function activateKeel(): Promise<KeelTestApi> {
  const extension = vscode.extensions.getExtension<KeelApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this extension host`);
  const api = await extension.activate();
  assert.ok(hasTestHooks(api), 'activate() returned no testHooks: is the extension running in ExtensionMode.Test?');
  return api;
}

function hasTestHooks(api: KeelApi): api is KeelTestApi {
  return 'testHooks' in api && typeof api.testHooks === 'object' && api.testHooks !== null;
}

export function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration run opens a workspace folder');
  return folder.uri.fsPath;
}

/** Where this workspace's session logs live under KEEL_HOME. */
export function workspaceSessionsDir(): string {
  const home = process.env.KEEL_HOME;
  assert.ok(home, 'KEEL_HOME is set for the run');
  return sessionsDir(home, workspaceKey({ root: workspaceFolder() }));
}

/**
 * Sets (or with undefined, clears) keel.baseUrl and keel.model in the user settings, as a
 * person would in the Settings editor, and waits until the extension host sees the change.
 */
export async function setModelSettings(settings: { baseUrl: string; model: string } | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration('keel');
  await config.update('baseUrl', settings?.baseUrl, vscode.ConfigurationTarget.Global);
  await config.update('model', settings?.model, vscode.ConfigurationTarget.Global);
  // A generated title is one more model request: scripted turns are for the conversation
  // (also for models that come without these settings, such as VS Code's language models).
  await config.update('sessionTitles', 'firstPrompt', vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const now = vscode.workspace.getConfiguration('keel');
    if (now.get('baseUrl', '') === (settings?.baseUrl ?? '') && now.get('model', '') === (settings?.model ?? '')) return;
    if (Date.now() > deadline) throw new Error('the keel.baseUrl / keel.model update never reached the extension host');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function setApprovalMode(mode: 'manual' | 'autoEdit' | 'yolo' | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('keel').update('approvalMode', mode, vscode.ConfigurationTarget.Global);
}

/** keel.sandbox in the user settings (the only scope it is read from); resolves once the host sees it. */
export async function setSandbox(mode: 'auto' | 'on' | 'off' | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('keel').update('sandbox', mode, vscode.ConfigurationTarget.Global);
  const deadline = Date.now() + 10_000;
  while (vscode.workspace.getConfiguration('keel').inspect('sandbox')?.globalValue !== mode) {
    if (Date.now() > deadline) throw new Error('the keel.sandbox update never reached the extension host');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
