import { errorMessage } from '../errors';
import type { Host } from '../host';
import { fence, formatDiagnostics } from '../llmsContext/editorSection';
import type { Workspace } from '../workspace/workspace';
import type { MentionBody } from './fileMentions';

const notHere = (what: string, host: Host) =>
  `${what} is only available in VS Code${host.kind === 'cli' ? '; this is the keel CLI' : ''}`;

export async function expandProblems(host: Host, workspace: Workspace): Promise<MentionBody> {
  if (!host.workspaceProblems) return { ok: false, reason: notHere('@problems', host) };
  try {
    const diags = await host.workspaceProblems();
    if (diags.length === 0) return { ok: true, body: 'No problems: the editor reports no errors or warnings in the workspace.', hint: '' };
    const show = (p: string) => (workspace.folderOf(p) ? workspace.display(p) : p);
    return { ok: true, body: [`${diags.length} problem${diags.length === 1 ? '' : 's'}:`, ...formatDiagnostics(diags, show)].join('\n'), hint: 'errors come first' };
  } catch (err) {
    return { ok: false, reason: `the editor could not list problems: ${errorMessage(err)}` };
  }
}

export async function expandSelection(host: Host, workspace: Workspace): Promise<MentionBody> {
  if (!host.editorState) return { ok: false, reason: notHere('@selection', host) };
  try {
    const active = (await host.editorState()).active;
    const sel = active?.selection;
    if (!active || !sel || sel.text === '') return { ok: false, reason: 'nothing is selected in the editor' };
    const shown = workspace.folderOf(active.path) ? workspace.display(active.path) : active.path;
    return { ok: true, body: `${shown}, lines ${sel.startLine}-${sel.endLine}:\n${fence(sel.text, active.languageId ?? '')}`, hint: `read ${shown} for the rest` };
  } catch (err) {
    return { ok: false, reason: `the editor could not report the selection: ${errorMessage(err)}` };
  }
}

export async function expandTerminal(host: Host): Promise<MentionBody> {
  if (!host.lastTerminalOutput) return { ok: false, reason: notHere('@terminal', host) };
  try {
    const last = await host.lastTerminalOutput();
    if (!last) return { ok: false, reason: "no command has run in Keel's terminal yet" };
    const exit = last.exitCode === undefined ? 'exit code unknown' : `exit code ${last.exitCode}`;
    const where = last.cwd ? ` in ${last.cwd}` : '';
    // A command that ends at once can finish before the editor starts reading its output.
    const output = last.output.trim() ? fence(keepTail(last.output)) : '(no output was captured)';
    return { ok: true, body: `$ ${last.command}${where} (${exit})\n${output}`, hint: 'rerun the command for all of it' };
  } catch (err) {
    return { ok: false, reason: `the terminal output could not be read: ${errorMessage(err)}` };
  }
}

const terminalHead = 2_000;
const terminalTail = 14_000;

/** A command's end says most (errors, summaries): keep a little of the start and much of the end. */
function keepTail(output: string): string {
  if (output.length <= terminalHead + terminalTail) return output;
  const left = output.length - terminalHead - terminalTail;
  return `${output.slice(0, terminalHead)}\n[... ${left} characters left out ...]\n${output.slice(-terminalTail)}`;
}
