/// <reference types="mocha" />
// The command palette offers Keel's state-bound commands only when they can act: the host
// keeps VS Code's context keys in step with the chat (a run going, a change waiting, a plan
// waiting), package.json's `when` clauses read exactly those keys, and the default keys Keel
// adds (focus the chat, new chat) are free in VS Code's own keymap.
import * as assert from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { EXTENSION_ID, activateKeel, keelHomeForRun, workspaceFolder } from './support/keelSetup';
import { until } from './support/waiting';

keelHomeForRun();

const PLAN = ['## Goal', 'Tidy up.', '', '## Steps', '1. Rename x in src/math.ts', '', '## Risks', 'None.', '', '## Verification', 'npm test'].join('\n');

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus: { commandPalette: { command: string; when: string }[] };
    keybindings: { command: string; key: string; mac?: string; when?: string }[];
  };
}

function manifest(): Manifest {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension);
  return extension.packageJSON as Manifest;
}

describe('commands that need a state', () => {
  const chat = useConfiguredChat();
  const keys = async (): Promise<Record<string, boolean>> => (await activateKeel()).testHooks.contextKeys();
  /** Polls the host's context keys until one has the value (the host sets them as the chat's state changes). */
  async function keyIs(name: string, value: boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    let seen: Record<string, boolean> = {};
    while (Date.now() < deadline) {
      seen = await keys();
      if (seen[name] === value) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`timed out waiting for ${name} to be ${value} (keys: ${JSON.stringify(seen)})`);
  }

  it('are hidden from the palette by the context keys the host sets', () => {
    const when = Object.fromEntries(manifest().contributes.menus.commandPalette.map((m) => [m.command, m.when]));
    assert.deepStrictEqual(
      {
        stop: when['keel.stop'],
        executePlan: when['keel.executePlan'],
        openPlan: when['keel.openPlan'],
        accept: when['keel.acceptChange'],
        reject: when['keel.rejectChange'],
        acceptAll: when['keel.acceptAllChanges'],
        rejectAll: when['keel.rejectAllChanges'],
        reviewWorktree: when['keel.reviewWorktreeChanges'],
        keepBranch: when['keel.keepWorktreeBranch'],
        discardWorktree: when['keel.discardWorktree'],
      },
      {
        stop: 'keel.running',
        executePlan: 'keel.planPending',
        openPlan: 'keel.hasPlan',
        accept: 'keel.hasPendingChange',
        reject: 'keel.hasPendingChange',
        acceptAll: 'keel.hasPendingChange',
        rejectAll: 'keel.hasPendingChange',
        reviewWorktree: 'keel.inWorktree',
        keepBranch: 'keel.inWorktree',
        discardWorktree: 'keel.inWorktree',
      },
    );
  });

  it('a new chat has nothing running, waiting or planned', async () => {
    assert.deepStrictEqual(await keys(), { 'keel.running': false, 'keel.hasPendingChange': false, 'keel.hasPlan': false, 'keel.planPending': false, 'keel.inWorktree': false });
  });

  it('keel.running and keel.hasPendingChange follow a run that waits for a change to be approved', async () => {
    const file = join(workspaceFolder(), 'src', 'math.ts');
    const before = readFileSync(file, 'utf8');
    chat.server.load({
      turns: [reply.tool('read', { file_path: 'src/math.ts' }), reply.tool('write', { file_path: 'src/math.ts', content: 'export {};\n' })],
      fallback: { text: 'ok' },
    });
    const from = chat.page.events.length;
    await chat.page.send('rewrite math.ts');
    const asked = await chat.page.nextApproval();
    await keyIs('keel.hasPendingChange', true);
    assert.strictEqual((await keys())['keel.running'], true);
    asked.answer({ approved: false });
    await chat.page.runEnded(from);
    await keyIs('keel.hasPendingChange', false);
    await keyIs('keel.running', false);
    assert.strictEqual(readFileSync(file, 'utf8'), before);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('keel.planPending holds while a plan waits, keel.hasPlan while the conversation has one', async () => {
    chat.server.load({ turns: [reply.text(PLAN)] });
    const from = chat.page.events.length;
    await chat.page.bus.request('session.send', { text: 'plan a tidy-up', mode: 'plan' });
    await chat.page.runEnded(from, 30_000);
    await keyIs('keel.planPending', true);
    assert.strictEqual((await keys())['keel.hasPlan'], true);
    const planId = (chat.page.named('plan').at(-1) as { plan: { id: string } }).plan.id;
    await chat.page.bus.request('plan.discard', { planId });
    await keyIs('keel.planPending', false);
    assert.strictEqual((await keys())['keel.hasPlan'], true, 'a discarded plan can still be shown');
    await chat.page.bus.request('mode.set', { mode: 'act' });
    await chat.page.newChat();
    await keyIs('keel.hasPlan', false);
  });
});

describe('default keybindings', () => {
  it('focus the chat and start a new one on keys VS Code itself does not use', async function () {
    this.timeout(30_000);
    const ours = manifest().contributes.keybindings.filter((k) => k.command === 'keel.chat.focus' || k.command === 'keel.newChat');
    assert.deepStrictEqual(
      ours.map((k) => `${k.command} ${k.key} ${k.mac}`),
      ['keel.chat.focus ctrl+alt+k cmd+alt+k', 'keel.newChat ctrl+alt+shift+k cmd+alt+shift+k'],
    );
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    await until(() => vscode.window.activeTextEditor?.document.uri.scheme === 'vscode', 'the default keybindings');
    const text = vscode.window.activeTextEditor!.document.getText();
    // The file lists every default binding of this platform (Linux here), built-in and from extensions.
    assert.match(text, /"key": "ctrl\+shift\+p"/, 'the default keymap was read');
    // Keys as VS Code writes them may order modifiers differently: compare them sorted.
    const normal = (key: string): string => key.split(' ').map((chord) => chord.split('+').sort().join('+')).join(' ');
    const bindings = [...text.matchAll(/\{[^{}]*"key": "([^"]+)"[^{}]*"command": "([^"]+)"[^{}]*\}/g)].map((m) => ({ key: normal(m[1]!), command: m[2]! }));
    assert.ok(
      bindings.some((b) => b.key === normal('shift+ctrl+p') && b.command === 'workbench.action.showCommands'),
      `a known binding is found this way (${bindings.length} bindings read)`,
    );
    for (const key of ['ctrl+alt+k', 'ctrl+alt+shift+k']) {
      const taken = bindings.filter((b) => b.key === normal(key) && !b.command.startsWith('keel.') && !b.command.startsWith('-'));
      assert.deepStrictEqual(taken, [], `${key} is free in VS Code's default keymap`);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
