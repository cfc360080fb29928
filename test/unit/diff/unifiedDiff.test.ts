import { describe, expect, it } from 'vitest';
import { matchFileFormat, matchLineEndings, uniformEol } from '../../../src/core/diff/fileFormat';
import { unifiedDiff } from '../../../src/core/diff/unifiedDiff';

const labels = { fromLabel: 'a/x.ts', toLabel: 'b/x.ts' };

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', labels)).toBe('');
  });

  it('writes the diff -u format with three lines of context', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8'].map((l) => `${l}\n`).join('');
    const after = before.replace('5\n', 'five\n');
    expect(unifiedDiff(before, after, labels)).toBe(
      ['--- a/x.ts', '+++ b/x.ts', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8', ''].join('\n'),
    );
  });

  it('merges nearby changes into one block and keeps distant ones apart', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `l${i}\n`);
    const near = [...lines];
    near[5] = 'x\n';
    near[9] = 'y\n';
    expect(unifiedDiff(lines.join(''), near.join(''), labels).match(/^@@/gm)).toHaveLength(1);
    const far = [...lines];
    far[2] = 'x\n';
    far[25] = 'y\n';
    expect(unifiedDiff(lines.join(''), far.join(''), labels).match(/^@@/gm)).toHaveLength(2);
  });

  it('numbers insertions into an empty file and marks a missing final newline', () => {
    expect(unifiedDiff('', 'a\nb', labels)).toBe(['--- a/x.ts', '+++ b/x.ts', '@@ -0,0 +1,2 @@', '+a', '+b', '\\ No newline at end of file', ''].join('\n'));
  });

  it('shows CRLF lines without their carriage returns', () => {
    expect(unifiedDiff('a\r\nb\r\n', 'a\r\nc\r\n', labels)).not.toContain('\r');
  });
});

describe('file format', () => {
  it('tells uniform line endings from mixed ones', () => {
    expect(uniformEol('a\r\nb\r\n')).toBe('\r\n');
    expect(uniformEol('a\nb')).toBe('\n');
    expect(uniformEol('a\r\nb\n')).toBeUndefined();
    expect(uniformEol('one line')).toBeUndefined();
  });

  it('gives edited text the reference file’s line endings and BOM', () => {
    expect(matchLineEndings('x\ny\n', 'a\r\nb\r\n')).toBe('x\r\ny\r\n');
    expect(matchLineEndings('x\r\ny\n', 'a\r\nb\n')).toBe('x\r\ny\n');
    expect(matchFileFormat('x\ny\n', '\uFEFFa\r\n')).toBe('\uFEFFx\r\ny\r\n');
    expect(matchFileFormat('\uFEFFx\n', 'a\n')).toBe('x\n');
  });
});
