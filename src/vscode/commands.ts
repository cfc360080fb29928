import * as vscode from 'vscode';
import { registerDiffCommands } from './diff/diffCommands';
import { registerEditorCommands } from './editor/editorCommands';
import { pickSlashCommand } from './editor/slashCommandPick';
import { pickAgent } from './editor/agentPick';
import { guardedCommand } from './guardedCommand';
import { registerScmCommands } from './scm/scmCommands';
import { registerTerminalCommands } from './terminal/terminalCommands';
import type { TerminalWatch } from './terminal/terminalWatch';
import type { KeelRuntime } from './keelRuntime';
import { registerWorktreeCommands } from './worktrees/worktreeCommands';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  /** Loads the runtime if it is not loaded yet. */
  runtime(): Promise<KeelRuntime>;
  /** The runtime only if something already loaded it. */
  loadedRuntime(): KeelRuntime | undefined;
  /** The person's terminals' last commands. */
  terminalWatch: TerminalWatch;
}

const FOCUS_VIEW = 'keel.chat.focus';

/** The palette and view-title commands. Each is small; the work is in the runtime. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const command = (id: string, run: (...args: unknown[]) => Promise<unknown> | unknown): vscode.Disposable => guardedCommand(deps.log, id, run);

  return [
    command('keel.newChat', async () => {
      const runtime = await deps.runtime();
      await vscode.commands.executeCommand(FOCUS_VIEW);
      await runtime.controller.sessions.newSession();
      runtime.controller.showPanel('chat');
    }),
    command('keel.showSessions', async () => {
      const runtime = await deps.runtime();
      runtime.controller.showPanel('sessions');
      await vscode.commands.executeCommand(FOCUS_VIEW);
    }),
    command('keel.openSession', async () => {
      await (await deps.runtime()).openSessionPicker();
    }),
    command('keel.stop', () => {
      const cancelled = deps.loadedRuntime()?.controller.inView.cancel();
      if (!cancelled) void vscode.window.setStatusBarMessage(vscode.l10n.t('Keel: nothing is running'), 3000);
    }),
    command('keel.setApiKey', async () => (await deps.runtime()).setApiKey()),
    command('keel.openSettings', () => vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${deps.context.extension.id}`)),
    command('keel.showLog', () => deps.log.show()),
    command('keel.showMcpServers', async () => (await deps.runtime()).showMcpServers()),
    command('keel.mcpSignIn', async (name?: unknown) => (await deps.runtime()).signInToMcpServer(typeof name === 'string' ? name : undefined)),
    command('keel.runSlashCommand', async () => pickSlashCommand(await deps.runtime())),
    command('keel.useAgent', async () => pickAgent(await deps.runtime())),
    ...registerDiffCommands({ review: () => deps.loadedRuntime()?.changes }),
    ...registerWorktreeCommands(deps),
    ...registerEditorCommands(deps),
    ...registerScmCommands(deps),
    ...registerTerminalCommands({ log: deps.log, runtime: deps.runtime, watch: deps.terminalWatch }),
    // Plan mode (the work is in the runtime, loaded on first use).
    ...['keel.plan', 'keel.togglePlanMode', 'keel.openPlan', 'keel.executePlan'].map((id) =>
      command(id, async (...args) => (await deps.runtime()).planCommand(id, args)),
    ),
  ];
}
