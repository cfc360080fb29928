import * as vscode from 'vscode';
import { guardedCommand } from '../guardedCommand';
import type { KeelRuntime } from '../keelRuntime';
import { prefillChat } from '../editor/chatPrefill';
import type { TerminalWatch } from './terminalWatch';

export interface TerminalCommandDeps {
  log: vscode.LogOutputChannel;
  runtime(): Promise<KeelRuntime>;
  watch: TerminalWatch;
}

/** Longest terminal selection taken into the composer as text. */
const maxSelectionChars = 20_000;

/**
 * Keel from the terminal: "Fix with Keel" for the last command that failed in the terminal in
 * front (the status bar offers it), and adding the last command or the selection to the chat.
 * The command and its output travel as the `terminal` mention chip; nothing is sent until the
 * person presses Enter.
 */
export function registerTerminalCommands(deps: TerminalCommandDeps): vscode.Disposable[] {
  const command = (id: string, run: () => Promise<void>): vscode.Disposable => guardedCommand(deps.log, id, run);

  const lastCommand = () => {
    const last = deps.watch.lastCommand();
    if (!last) void vscode.window.showInformationMessage(vscode.l10n.t('Keel sees no finished command in this terminal yet (it needs shell integration).'));
    return last;
  };

  return [
    command('keel.terminal.fixLastCommand', async () => {
      const last = lastCommand();
      if (!last) return;
      deps.watch.settle();
      const runtime = await deps.runtime();
      runtime.pointTerminal(last);
      const code = last.exitCode === undefined ? '?' : String(last.exitCode);
      await prefillChat(runtime, { text: vscode.l10n.t('Fix this failed command: `{0}` (exit code {1})', last.command, code), mentions: [{ kind: 'terminal' }] }, true);
    }),
    command('keel.terminal.addLastCommand', async () => {
      const last = lastCommand();
      if (!last) return;
      const runtime = await deps.runtime();
      runtime.pointTerminal(last);
      await prefillChat(runtime, { mentions: [{ kind: 'terminal' }], add: true }, false);
    }),
    command('keel.terminal.addSelection', async () => {
      // The stable API has no terminal selection: copy it, and put the person's clipboard back.
      const before = await vscode.env.clipboard.readText();
      await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
      const selected = await vscode.env.clipboard.readText();
      await vscode.env.clipboard.writeText(before);
      const text = selected.trim() && selected !== before ? selected.slice(0, maxSelectionChars) : '';
      if (!text) {
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Keel: nothing is selected in the terminal'), 3000);
        return;
      }
      await prefillChat(await deps.runtime(), { text: `\n\`\`\`\n${text.replace(/\n+$/, '')}\n\`\`\`\n`, add: true }, false);
    }),
  ];
}
