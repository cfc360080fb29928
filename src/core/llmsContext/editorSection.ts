import type { EditorDiagnostic, EditorState } from '../editorState';
import type { Workspace } from '../workspace/workspace';

export const maxSelectionChars = 4_000;
export const maxDiagnostics = 50;

/** The person's editor as the model should picture it: what is open, selected and broken. */
export function renderEditorState(state: EditorState, workspace: Workspace): string {
  const show = (p: string) => (workspace.folderOf(p) ? workspace.display(p) : p);
  const lines: string[] = [];
  const active = state.active;
  if (active) {
    const facts: string[] = [];
    if (active.languageId) facts.push(active.languageId);
    if (active.cursorLine !== undefined) facts.push(`cursor on line ${active.cursorLine}`);
    if (active.dirty) facts.push('unsaved changes');
    lines.push(`Active file: ${show(active.path)}${facts.length ? ` (${facts.join(', ')})` : ''}`);
    const sel = active.selection;
    if (sel && sel.text !== '') {
      lines.push(`Selected lines ${sel.startLine}-${sel.endLine}:`);
      lines.push(fence(sel.text.length > maxSelectionChars ? `${sel.text.slice(0, maxSelectionChars)}\n[... selection cut at ${maxSelectionChars} characters]` : sel.text));
    }
  } else {
    lines.push('Active file: none');
  }
  const others = state.openFiles.filter((p) => p !== active?.path);
  if (others.length) lines.push(`Other open files: ${others.map(show).join(', ')}`);
  if (state.diagnostics.length === 0) {
    lines.push('Problems in open files: none');
  } else {
    lines.push(`Problems in open files (${state.diagnostics.length}):`);
    lines.push(...formatDiagnostics(state.diagnostics.slice(0, maxDiagnostics), show));
    if (state.diagnostics.length > maxDiagnostics) lines.push(`[... ${state.diagnostics.length - maxDiagnostics} more problems not shown]`);
  }
  return lines.join('\n');
}

const severityRank: Record<EditorDiagnostic['severity'], number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** `path:line:col severity [source code] message`, errors first. */
export function formatDiagnostics(diags: readonly EditorDiagnostic[], show: (path: string) => string): string[] {
  return [...diags]
    .sort((a, b) => severityRank[a.severity] - severityRank[b.severity])
    .map((d) => {
      const where = `${show(d.path)}:${d.line}${d.column !== undefined ? `:${d.column}` : ''}`;
      const origin = [d.source, d.code].filter(Boolean).join(' ');
      return `${where} ${d.severity}${origin ? ` [${origin}]` : ''} ${d.message.replace(/\s*\n\s*/g, ' ')}`;
    });
}

/** A fence longer than any backtick run inside, so the text cannot close it. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}
