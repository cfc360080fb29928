import * as vscode from 'vscode';
import type { KeelRuntime } from '../keelRuntime';

/**
 * "Keel: Use Agent…": the custom agents in a quick pick; the chosen one is the conversation in
 * view's from its next message on (kept in its log, so a resumed conversation keeps it), or none.
 */
export async function pickAgent(runtime: KeelRuntime): Promise<void> {
  const { agents, current } = await runtime.agents();
  if (agents.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No custom agents found. Keel reads .keel/agents, .claude/agents, .github/agents and your own ~/.keel/agents and ~/.claude/agents (see the README).'));
    return;
  }
  const none = { label: vscode.l10n.t('No agent'), description: current === undefined ? vscode.l10n.t('current') : '', detail: vscode.l10n.t('Keel\'s own prompt and all of its tools'), name: '' };
  const picked = await vscode.window.showQuickPick(
    [
      none,
      ...agents.map((a) => ({
        label: a.name,
        description: a.name === current ? vscode.l10n.t('current') : '',
        detail: `${a.description} — ${a.display}`,
        iconPath: new vscode.ThemeIcon('organization'),
        name: a.name,
      })),
    ],
    { placeHolder: vscode.l10n.t('Pick the agent this conversation works as from its next message on'), matchOnDetail: true },
  );
  if (!picked) return;
  await runtime.useAgent(picked.name);
}
