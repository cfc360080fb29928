import { describe, expect, it } from 'vitest';
import { compileGlob, GlobError, hasGlobSyntax } from '../../../src/core/workspace/globPattern';

const matches = (glob: string, path: string, braces = true) => compileGlob(glob, { braces }).test(path);

describe('compileGlob', () => {
  it('keeps * and ? inside one segment', () => {
    expect(matches('*.ts', 'a.ts')).toBe(true);
    expect(matches('*.ts', 'src/a.ts')).toBe(false);
    expect(matches('src/?.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/?.ts', 'src/ab.ts')).toBe(false);
  });

  it('lets a whole ** segment span zero or more folders', () => {
    expect(matches('**/*.ts', 'a.ts')).toBe(true);
    expect(matches('**/*.ts', 'x/y/a.ts')).toBe(true);
    expect(matches('src/**/a.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/a.ts', 'src/x/y/a.ts')).toBe(true);
    expect(matches('src/**', 'src/x/y')).toBe(true);
    expect(matches('src/**', 'lib/x')).toBe(false);
    expect(matches('a**b', 'axxb')).toBe(true);
    expect(matches('a**b', 'a/b')).toBe(false);
  });

  it('expands braces, including nested ones and ones holding slashes', () => {
    expect(matches('*.{ts,tsx}', 'a.tsx')).toBe(true);
    expect(matches('*.{ts,tsx}', 'a.js')).toBe(false);
    expect(matches('{src,lib}/**/*.js', 'lib/x/a.js')).toBe(true);
    expect(matches('a.{b,{c,d}}', 'a.d')).toBe(true);
    expect(matches('{**/x,y}', 'deep/er/x')).toBe(true);
    expect(() => compileGlob('*.{ts', { braces: true })).toThrow(GlobError);
    expect(matches('a{b}', 'a{b}', false)).toBe(true);
  });

  it('supports character classes, negation and escapes', () => {
    expect(matches('file[0-9].txt', 'file7.txt')).toBe(true);
    expect(matches('file[!0-9].txt', 'filex.txt')).toBe(true);
    expect(matches('file[!0-9].txt', 'file7.txt')).toBe(false);
    expect(matches('a[!x]b', 'a/b')).toBe(false);
    expect(matches('[[:digit:]]x', '5x')).toBe(true);
    expect(matches('\\*.txt', '*.txt')).toBe(true);
    expect(matches('\\*.txt', 'a.txt')).toBe(false);
    expect(matches('[unclosed', '[unclosed')).toBe(true);
    expect(matches('a.b', 'axb')).toBe(false);
  });

  it('ignores case only when asked', () => {
    expect(compileGlob('*.TS', { ignoreCase: true }).test('a.ts')).toBe(true);
    expect(compileGlob('*.TS').test('a.ts')).toBe(false);
  });
});

describe('hasGlobSyntax', () => {
  it('spots wildcards but not escaped ones', () => {
    expect(hasGlobSyntax('src')).toBe(false);
    expect(hasGlobSyntax('*.ts')).toBe(true);
    expect(hasGlobSyntax('{a,b}')).toBe(true);
    expect(hasGlobSyntax('a\\*b')).toBe(false);
  });
});
