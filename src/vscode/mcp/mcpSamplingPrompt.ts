import * as vscode from 'vscode';
import type { SamplingVerdict } from '../../core/mcp';

/** The most of a request a dialog shows; the rest is said in a count. */
const shownChars = 2_500;

/**
 * Asks before a server's sampling request runs on the person's model when no chat view can show
 * its card (see McpCards and McpHub): a dialog shows the server,
 * the model and the request; **Run** runs it, **Edit and Run…** lets the person change the last
 * user message first, anything else refuses it.
 */
export async function askToSample(server: string, request: string, modelId: string, lastUser: string | undefined): Promise<SamplingVerdict> {
  const run = vscode.l10n.t('Run');
  const edit = vscode.l10n.t('Edit and Run…');
  const shown = request.length > shownChars ? `${request.slice(0, shownChars)}\n${vscode.l10n.t('[… {0} more characters]', request.length - shownChars)}` : request;
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('MCP server "{0}" asks to run a request on your model ({1}).', server, modelId),
    { modal: true, detail: shown },
    run,
    ...(lastUser !== undefined ? [edit] : []),
  );
  if (choice === run) return { run: true };
  if (choice !== edit) return { run: false };
  const edited = await vscode.window.showInputBox({ title: vscode.l10n.t('The request of "{0}"', server), value: lastUser, ignoreFocusOut: true });
  return edited === undefined ? { run: false } : { run: true, lastUserText: edited };
}
