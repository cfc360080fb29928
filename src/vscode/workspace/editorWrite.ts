import * as vscode from 'vscode';
import type { WriteReport } from '../../core/host';
import { sandboxedProcessesGoing } from '../../core/sandbox';
import { expectNoRedirect, readFileNoFollow, writeFileNoFollow } from '../../core/workspace';
import { DiagnosticsWatch } from './diagnosticsWatch';
import { saveWithRetries } from './documentSave';

/**
 * Writes a whole file through VS Code instead of behind its back: a WorkspaceEdit (so Undo
 * works and open editors follow), then a save. An editor with unsaved changes that differ
 * from the disk is never overwritten. Where an edit of the document could not give exactly
 * `content`'s bytes (VS Code has not yet reloaded a change made on disk, or the content's
 * line endings differ from the document's, which an edit would convert), the bytes are
 * written directly instead and open editors reload them.
 *
 * While a sandboxed process of Keel's is going, it may swap a folder on the way for a link at
 * any moment, and VS Code's edit and save go by name: they would follow it out of the
 * workspace or into `.vscode/`. Keel then always writes directly: through a descriptor of the
 * checked folder, refusing (RedirectedPathError, nothing written) when what it opened is not
 * what it checked. The editor's save actions do not run for such a write.
 * Returns the errors the change introduced, if any.
 */
export async function writeThroughEditor(
  absPath: string,
  content: string | null,
  displayPath: string,
  log: (message: string) => void,
): Promise<WriteReport> {
  const uri = vscode.Uri.file(absPath);
  // A command may swap a folder on the way for a link: the edit and save below go by name.
  await expectNoRedirect(absPath);
  const racing = sandboxedProcessesGoing();
  const edit = new vscode.WorkspaceEdit();
  if (content === null) {
    if (racing) {
      await writeFileNoFollow(absPath, null);
      return {};
    }
    edit.deleteFile(uri, { ignoreIfNotExists: true, recursive: false });
    await apply(edit, absPath);
    return {};
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) await refuseUnsavedChanges(open, absPath, displayPath);
  if (open?.isDirty && racing) {
    throw new Error(
      `${displayPath} is open in an editor with unsaved changes. While a sandboxed command is running, Keel writes files itself rather than through the editor's save, and would write under them; nothing was written. Ask the person to save or revert it, then retry.`,
    );
  }
  const disk = await readDisk(absPath);
  let direct = racing;
  if (racing) {
    log(`${displayPath}: written directly (a sandboxed command is running, and the editor's save would follow a folder it swapped for a link); the editor's save actions did not run`);
  } else if (disk !== null) {
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    const exact = editGivesBytes(document, content);
    if (document.isDirty && !exact) {
      throw new Error(`${displayPath} is open with unsaved edits in an encoding or line ending the new content does not use; nothing was written. Ask the person to save or revert it, then retry.`);
    }
    direct = !document.isDirty && (!holdsText(document, disk) || !exact);
    if (direct) {
      log(`${displayPath}: written directly (its editor lags the disk, or an edit of it could not give these exact bytes)`);
    } else {
      const all = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
      edit.replace(uri, all, documentText(document, content));
    }
  } else {
    edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(content) });
  }
  const watch = new DiagnosticsWatch(uri);
  try {
    if (direct) {
      // Through a descriptor of the checked folder: no link on the way is followed.
      await writeFileNoFollow(absPath, new TextEncoder().encode(content));
    } else {
      await apply(edit, absPath);
      const document = await vscode.workspace.openTextDocument(uri);
      if (!(await saveWithRetries(document, 5, 300))) {
        throw new Error(`VS Code did not save ${displayPath}; the change is in its editor but not on disk.`);
      }
      await expectNoRedirect(absPath);
    }
    // Opened by name: while a command swaps a folder on the way, that may fail, and the write stands.
    const document = await vscode.workspace.openTextDocument(uri).then(
      (d) => d,
      (err: unknown) => log(`${displayPath}: written, but its diagnostics were not read: ${err instanceof Error ? err.message : String(err)}`),
    );
    const diagnostics = document ? await watch.newErrors(document, displayPath, log) : undefined;
    const report: WriteReport = {};
    if (diagnostics) report.diagnostics = diagnostics;
    // A direct write is exactly `content`.
    if (direct) return report;
    // Save participants (format on save, trim whitespace) may have changed what was accepted.
    const landed = await readDisk(absPath);
    if (landed !== null && landed !== content) {
      log(`${displayPath}: the editor's save actions changed the file beyond the approved change`);
      report.landed = landed;
    }
    return report;
  } finally {
    watch.dispose();
  }
}

/**
 * The file's text on disk, read without following a link on the way (what is read may go to the
 * model: a folder swapped for a link must not make it another file's), or null when there is none.
 */
async function readDisk(absPath: string): Promise<string | null> {
  try {
    return (await readFileNoFollow(absPath)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

const BOM = '\uFEFF';

/** Whether the document's text is `fileText` (a file's decoded content) as VS Code shows it. */
function holdsText(document: vscode.TextDocument, fileText: string): boolean {
  const shown = document.encoding === 'utf8bom' && fileText.startsWith(BOM) ? fileText.slice(1) : fileText;
  return document.getText() === shown;
}

/**
 * Whether replacing the document's text and saving writes exactly `content`'s UTF-8 bytes:
 * VS Code keeps a BOM in the document's encoding (utf8bom), not in its text, saves other
 * encodings as themselves, and converts the line endings of inserted text to the document's.
 */
function editGivesBytes(document: vscode.TextDocument, content: string): boolean {
  if (document.encoding === 'utf8bom' ? !content.startsWith(BOM) : document.encoding !== 'utf8') return false;
  const lf = (content.match(/\n/g) ?? []).length;
  if (lf === 0) return true;
  const crlf = (content.match(/\r\n/g) ?? []).length;
  return document.eol === vscode.EndOfLine.CRLF ? crlf === lf : crlf === 0;
}

/** `content` as the document must hold it (see editGivesBytes). */
function documentText(document: vscode.TextDocument, content: string): string {
  return document.encoding === 'utf8bom' ? content.slice(1) : content;
}

async function apply(edit: vscode.WorkspaceEdit, absPath: string): Promise<void> {
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code refused the change to ${absPath}.`);
}

async function refuseUnsavedChanges(document: vscode.TextDocument, absPath: string, displayPath: string): Promise<void> {
  const disk = (await readDisk(absPath)) ?? '';
  if (!holdsText(document, disk)) {
    throw new Error(`${displayPath} has unsaved changes in an editor; nothing was written. Ask the person to save or revert it, then read it again.`);
  }
}
