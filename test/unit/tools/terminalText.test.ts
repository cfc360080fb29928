import { describe, expect, it } from 'vitest';
import { TerminalText } from '../../../src/core/tools/text/terminalText';

function clean(...chunks: string[]): string {
  const text = new TerminalText();
  return chunks.map((c) => text.push(c)).join('') + text.end();
}

describe('TerminalText', () => {
  it('drops shell-integration marks and turns CRLF into LF', () => {
    expect(clean('\x1b]633;C\x07hello-probe\r\n')).toBe('hello-probe\n');
  });

  it('drops colours and cursor moves', () => {
    expect(clean('\x1b[1;31merror\x1b[0m: bad\x1b[K\r\n\x1b[2J\x1b[Hdone')).toBe('error: bad\ndone');
  });

  it('drops OSC sequences ended by ST and other escapes', () => {
    expect(clean('\x1b]0;title\x1b\\a\x1b(Bb\x1b=c')).toBe('abc');
  });

  it('holds a sequence split across chunks until it ends', () => {
    expect(clean('one\x1b', ']633;', 'D;0\x07', 'two\x1b[3', '2mthree')).toBe('onetwothree');
  });

  it('keeps a CRLF split across chunks as one line break', () => {
    expect(clean('a\r', '\nb\r', '\n')).toBe('a\nb\n');
  });

  it('turns a lone CR (a redrawn progress line) into a line break', () => {
    expect(clean('10%\r50%\r100%\n')).toBe('10%\n50%\n100%\n');
  });

  it('drops other control characters but keeps tabs and text', () => {
    expect(clean('a\tb\x07c\x08d ✓')).toBe('a\tbcd ✓');
  });

  it('drops an unfinished sequence at the end of the stream', () => {
    expect(clean('text\x1b[12')).toBe('text');
  });
});
