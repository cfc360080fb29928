import * as vscode from 'vscode';
import { mcpToolName } from '../../core/mcp';
import type { McpServerStatus } from '../../core/mcp';
import type { McpHub } from './mcpHub';
import { stateText } from '../../chat/bus/mcpView';

/** One line for a server's state, as the status list and the quick pick show it. */

const icons: Record<McpServerStatus['state'], string> = {
  ready: '$(pass-filled)',
  failed: '$(error)',
  disabled: '$(circle-slash)',
  starting: '$(loading~spin)',
  signin: '$(sign-in)',
};

/** "Keel: MCP Servers": each server's state, then restart, disable/enable or its log. */
export async function showMcpServers(hub: McpHub): Promise<void> {
  const servers = hub.manager.status();
  if (servers.length === 0) {
    const open = await vscode.window.showInformationMessage(
      vscode.l10n.t('No MCP servers are configured. Add them to .vscode/mcp.json in the workspace or to the keel.mcpServers setting.'),
      vscode.l10n.t('Open Settings'),
    );
    if (open) await vscode.commands.executeCommand('workbench.action.openSettings', 'keel.mcpServers');
    return;
  }
  const pick = await vscode.window.showQuickPick(
    servers.map((s) => ({
      label: `${icons[s.state]} ${s.name}`,
      description: `${s.origin} · ${s.transport} · ${stateText(s)}`,
      detail: s.stderr?.length ? `stderr: ${s.stderr.slice(-3).join(' ⏎ ')}` : undefined,
      server: s,
    })),
    { title: vscode.l10n.t('Keel: MCP Servers'), placeHolder: vscode.l10n.t('Choose a server for its actions') },
  );
  if (!pick) return;
  const s = pick.server;
  const known = hub.manager.config(s.name) !== undefined;
  const actions: { label: string; run: () => Promise<unknown> }[] = [];
  if (known && hub.manager.signsIn(s.name)) {
    if (s.state === 'signin') actions.push({ label: `$(sign-in) ${vscode.l10n.t('Sign in')}`, run: () => hub.signIn(s.name) });
    else actions.push({ label: `$(sign-out) ${vscode.l10n.t('Sign out')}`, run: () => hub.manager.signOut(s.name) });
  }
  if (known) {
    const off = hub.isDisabled(s.name) || s.state === 'disabled';
    if (!off && s.state !== 'signin') actions.push({ label: `$(debug-restart) ${vscode.l10n.t('Restart')}`, run: () => hub.manager.restart(s.name) });
    actions.push(
      off
        ? { label: `$(play) ${vscode.l10n.t('Enable')}`, run: () => hub.setEnabled(s.name, true) }
        : { label: `$(circle-slash) ${vscode.l10n.t('Disable')}`, run: () => hub.setEnabled(s.name, false) },
    );
    if (s.state === 'ready') actions.push({ label: `$(list-unordered) ${vscode.l10n.t('Show Tools, Prompts and Resources')}`, run: () => showCatalogue(hub, s.name) });
    actions.push({ label: `$(output) ${vscode.l10n.t('Show Log')}`, run: () => showServerLog(hub, s.name) });
  }
  if (s.origin === 'workspace' || !known) {
    actions.push({ label: `$(go-to-file) ${vscode.l10n.t('Open .vscode/mcp.json')}`, run: () => openWorkspaceConfig() });
  }
  const action = await vscode.window.showQuickPick(actions, { title: vscode.l10n.t('MCP server "{0}": {1}', s.name, stateText(s)) });
  await action?.run();
}

/**
 * "Keel: Sign In to an MCP Server" (and the chat's "Sign in" button, which names the server):
 * the person's click is what lets the server open the browser.
 */
export async function signInToMcpServer(hub: McpHub, name?: string): Promise<void> {
  if (name !== undefined) return hub.signIn(name);
  const waiting = hub.manager.status().filter((s) => s.state === 'signin');
  if (waiting.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No MCP server is waiting for you to sign in.'));
    return;
  }
  const pick = waiting.length === 1 ? waiting[0] : await vscode.window.showQuickPick(waiting.map((s) => ({ label: s.name, description: s.origin, server: s })), { title: vscode.l10n.t('Sign in to which MCP server?') }).then((p) => p?.server);
  if (pick) await hub.signIn(pick.name);
}

async function showServerLog(hub: McpHub, name: string): Promise<void> {
  const lines = hub.manager.log(name);
  const doc = await vscode.workspace.openTextDocument({
    content: lines.length ? lines.join('\n') : vscode.l10n.t('(nothing logged for "{0}" yet)', name),
    language: 'log',
  });
  await vscode.window.showTextDocument(doc, { preview: true });
}

async function showCatalogue(hub: McpHub, name: string): Promise<void> {
  const { tools, prompts, resources } = hub.manager.catalogue(name);
  const lines = [`# ${vscode.l10n.t('MCP server "{0}"', name)}`, '', `## ${vscode.l10n.t('Tools ({0})', tools.length)}`, ''];
  for (const t of tools) lines.push(`- \`${mcpToolName(name, t.name)}\`${t.readOnly ? ` (${vscode.l10n.t('read-only')})` : ''}: ${oneLine(t.description ?? t.title ?? '')}`);
  lines.push('', `## ${vscode.l10n.t('Prompts ({0})', prompts.length)}`, '');
  for (const p of prompts) lines.push(`- \`/${p.command}\` ${p.arguments.map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ')}: ${oneLine(p.description ?? '')}`);
  lines.push('', `## ${vscode.l10n.t('Resources ({0})', resources.length)}`, '');
  for (const r of resources) lines.push(`- ${r.name} \`${r.uri}\`${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? `: ${oneLine(r.description)}` : ''}`);
  const doc = await vscode.workspace.openTextDocument({ content: lines.join('\n'), language: 'markdown' });
  await vscode.window.showTextDocument(doc, { preview: true });
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function openWorkspaceConfig(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return;
  await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'));
}
