import { describe, expect, it } from 'vitest';
import { PathError } from '../../../src/core/workspace/pathError';
import { assertSafePathSyntax } from '../../../src/core/workspace/pathSyntax';

describe('assertSafePathSyntax', () => {
  it('accepts ordinary paths, including .. with forward slashes (containment is checked later)', () => {
    for (const p of ['src/a.ts', './x', '../y', '/abs/path', 'a..b/c', '.hidden', 'a/./b']) {
      expect(() => assertSafePathSyntax(p, 'linux'), p).not.toThrow();
    }
  });

  it('allows a drive letter only as the first segment on Windows', () => {
    expect(() => assertSafePathSyntax('C:\\work\\x.ts', 'win32')).not.toThrow();
    expect(() => assertSafePathSyntax('C:/work/x.ts', 'win32')).not.toThrow();
    expect(() => assertSafePathSyntax('C:/work/x.ts', 'linux')).toThrow(PathError);
    expect(() => assertSafePathSyntax('C:foo', 'win32')).toThrow(/":"/);
    expect(() => assertSafePathSyntax('work/C:/x', 'win32')).toThrow(PathError);
  });

  it('refuses reserved device names on Windows', () => {
    expect(() => assertSafePathSyntax('src/con.ts', 'win32')).toThrow(/device name/);
    expect(() => assertSafePathSyntax('NUL', 'win32')).toThrow(PathError);
    expect(() => assertSafePathSyntax('src/console.ts', 'win32')).not.toThrow();
  });

  it('says why a path is refused', () => {
    expect(() => assertSafePathSyntax('..\\x', 'linux')).toThrow(/backslash traversal/);
    expect(() => assertSafePathSyntax('\\\\?\\C:\\x', 'win32')).toThrow(/namespace prefixes/);
    expect(() => assertSafePathSyntax('file.txt:stream', 'linux')).toThrow(/alternate data stream/);
    expect(() => assertSafePathSyntax('dir./x', 'linux')).toThrow(/dot or space/);
    expect(() => assertSafePathSyntax('', 'linux')).toThrow(/empty/);
  });
});
