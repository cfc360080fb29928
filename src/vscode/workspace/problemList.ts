import type { DiagnosticSeverity, EditorDiagnostic } from '../../core/editorState';

/** A diagnostic as VS Code reports it, as far as the core needs it (vscode.Diagnostic fits). */
export interface DiagnosticLike {
  /** 0-based. */
  range: { start: { line: number; character: number } };
  message: string;
  /** vscode.DiagnosticSeverity: 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
  source?: string;
  code?: string | number | { value: string | number };
}

const SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'info', 'hint'];

export function toEditorDiagnostic(path: string, d: DiagnosticLike): EditorDiagnostic {
  const out: EditorDiagnostic = {
    path,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITIES[d.severity] ?? 'info',
    message: d.message,
  };
  if (d.source) out.source = d.source;
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  if (code !== undefined && code !== '') out.code = String(code);
  return out;
}

/**
 * The problems of the given files, most severe first (then by file and line), at most `max`:
 * what a person scanning the Problems panel would look at first.
 */
export function problemList(files: Iterable<readonly [path: string, diagnostics: readonly DiagnosticLike[]]>, max: number): EditorDiagnostic[] {
  const all: EditorDiagnostic[] = [];
  for (const [path, diagnostics] of files) for (const d of diagnostics) all.push(toEditorDiagnostic(path, d));
  all.sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line ||
      (a.column ?? 0) - (b.column ?? 0),
  );
  return all.slice(0, max);
}
