import { describe, expect, it } from 'vitest';
import { problemList, toEditorDiagnostic } from '../../../src/vscode/workspace/problemList';
import type { DiagnosticLike } from '../../../src/vscode/workspace/problemList';

function diag(line: number, severity: number, message: string, extra: Partial<DiagnosticLike> = {}): DiagnosticLike {
  return { range: { start: { line, character: 4 } }, severity, message, ...extra };
}

describe('problemList', () => {
  it('turns VS Code diagnostics into 1-based problems with their source and code', () => {
    expect(toEditorDiagnostic('/w/a.ts', diag(0, 0, 'x is not defined', { source: 'ts', code: 2304 }))).toEqual({
      path: '/w/a.ts',
      line: 1,
      column: 5,
      severity: 'error',
      message: 'x is not defined',
      source: 'ts',
      code: '2304',
    });
    expect(toEditorDiagnostic('/w/a.ts', diag(2, 3, 'unused', { code: { value: 'no-unused-vars' } }))).toMatchObject({ severity: 'hint', code: 'no-unused-vars' });
  });

  it('lists errors before warnings across files, then by file and line, and stops at the cap', () => {
    const list = problemList(
      [
        ['/w/b.ts', [diag(9, 1, 'b warning'), diag(3, 0, 'b error')]],
        ['/w/a.ts', [diag(5, 2, 'a info'), diag(7, 0, 'a error')]],
      ],
      3,
    );
    expect(list.map((d) => d.message)).toEqual(['a error', 'b error', 'b warning']);
  });
});
