import { describe, expect, it } from 'vitest';
import { newErrorsReport } from '../../../src/vscode/workspace/diagnosticsReport';

describe('newErrorsReport', () => {
  it('reports only errors the change added, by what they say, not where', () => {
    const before = [{ line: 1, character: 0, message: 'old problem', source: 'ts', code: 2304 }];
    const after = [
      { line: 9, character: 0, message: 'old problem', source: 'ts', code: 2304 },
      { line: 4, character: 2, message: "Cannot find name 'x'.", source: 'ts', code: 2304 },
    ];
    expect(newErrorsReport('src/a.ts', before, after)).toBe("src/a.ts:5:3: error: Cannot find name 'x'. [ts 2304]");
    expect(newErrorsReport('src/a.ts', after, before)).toBeUndefined();
  });
});
