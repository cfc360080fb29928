/** A diagnostic as far as the report needs it (vscode.Diagnostic fits after mapping). */
export interface DiagnosticInfo {
  /** 0-based, as VS Code counts. */
  line: number;
  character: number;
  message: string;
  source?: string;
  code?: string | number;
}

const MAX_REPORTED = 20;

function key(d: DiagnosticInfo): string {
  // Lines move when a file is edited, so an error is "the same" by what it says.
  return `${d.source ?? ''}\u0000${String(d.code ?? '')}\u0000${d.message}`;
}

/**
 * The errors in `after` that were not in `before`, as lines the model can act on:
 * `path:line:col: message [source code]`. Undefined when the change added none.
 */
export function newErrorsReport(displayPath: string, before: readonly DiagnosticInfo[], after: readonly DiagnosticInfo[]): string | undefined {
  const seen = new Map<string, number>();
  for (const d of before) seen.set(key(d), (seen.get(key(d)) ?? 0) + 1);
  const fresh: DiagnosticInfo[] = [];
  for (const d of after) {
    const k = key(d);
    const left = seen.get(k) ?? 0;
    if (left > 0) seen.set(k, left - 1);
    else fresh.push(d);
  }
  if (fresh.length === 0) return undefined;
  fresh.sort((a, b) => a.line - b.line || a.character - b.character);
  const lines = fresh.slice(0, MAX_REPORTED).map((d) => {
    const tag = [d.source, d.code === undefined ? undefined : String(d.code)].filter(Boolean).join(' ');
    return `${displayPath}:${d.line + 1}:${d.character + 1}: error: ${d.message.replace(/\s*\n\s*/g, ' ')}${tag ? ` [${tag}]` : ''}`;
  });
  if (fresh.length > MAX_REPORTED) lines.push(`… and ${fresh.length - MAX_REPORTED} more errors`);
  return lines.join('\n');
}
