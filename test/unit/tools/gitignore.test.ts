import { describe, expect, it } from 'vitest';
import { gitignoreVerdict, parseGitignore } from '../../../src/core/tools/search/gitignore';

const verdict = (text: string, path: string, isDir = false) => gitignoreVerdict(parseGitignore(text), path, isDir);

describe('gitignore rules', () => {
  it('matches a pattern without a slash at any depth', () => {
    expect(verdict('*.log', 'a.log')).toBe('ignore');
    expect(verdict('*.log', 'deep/er/a.log')).toBe('ignore');
    expect(verdict('*.log', 'a.txt')).toBeUndefined();
  });

  it('anchors patterns with a leading or middle slash', () => {
    expect(verdict('/todo.txt', 'todo.txt')).toBe('ignore');
    expect(verdict('/todo.txt', 'sub/todo.txt')).toBeUndefined();
    expect(verdict('doc/frotz', 'doc/frotz')).toBe('ignore');
    expect(verdict('doc/frotz', 'a/doc/frotz')).toBeUndefined();
  });

  it('applies a trailing slash to folders only', () => {
    expect(verdict('build/', 'build', true)).toBe('ignore');
    expect(verdict('build/', 'build', false)).toBeUndefined();
    expect(verdict('build/', 'src/build', true)).toBe('ignore');
  });

  it('lets the last matching rule win, so ! re-includes', () => {
    expect(verdict('*.log\n!keep.log', 'keep.log')).toBe('include');
    expect(verdict('!keep.log\n*.log', 'keep.log')).toBe('ignore');
  });

  it('handles ** forms', () => {
    expect(verdict('**/foo', 'foo')).toBe('ignore');
    expect(verdict('**/foo', 'a/b/foo')).toBe('ignore');
    expect(verdict('abc/**', 'abc/x/y')).toBe('ignore');
    expect(verdict('abc/**', 'abc', true)).toBeUndefined();
    expect(verdict('a/**/b', 'a/b')).toBe('ignore');
    expect(verdict('a/**/b', 'a/x/y/b')).toBe('ignore');
  });

  it('reads comments, escapes and trailing spaces the way git does', () => {
    expect(verdict('# not a rule', '# not a rule')).toBeUndefined();
    expect(verdict('\\#hash', '#hash')).toBe('ignore');
    expect(verdict('\\!bang', '!bang')).toBe('ignore');
    expect(verdict('trail   ', 'trail')).toBe('ignore');
    expect(verdict('space\\ ', 'space ')).toBe('ignore');
    expect(verdict('a.txt\r\nb.txt', 'b.txt')).toBe('ignore');
  });

  it('matches character classes', () => {
    expect(verdict('file[0-9].txt', 'file3.txt')).toBe('ignore');
    expect(verdict('file[!0-9].txt', 'file3.txt')).toBeUndefined();
  });
});
