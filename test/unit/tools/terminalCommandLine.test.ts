import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote, terminalCommandLine } from '../../../src/core/tools/process/terminalCommandLine';

/** What bash makes of a quoted word: the proof that quoting gives the command back unchanged. */
function bashReads(word: string): string {
  return execFileSync('bash', ['-c', `printf %s ${word}`], { encoding: 'utf8' });
}

describe('terminalCommandLine', () => {
  it('runs the command through shell -c, after a cd when the terminal is elsewhere', () => {
    expect(terminalCommandLine('/usr/bin/bash', 'npm test', '/ws/app', '/ws')).toBe("cd -- '/ws/app' && /usr/bin/bash -c 'npm test'");
  });

  it('leaves out the cd when the terminal is already in the folder', () => {
    expect(terminalCommandLine('/bin/bash', 'ls', '/ws', '/ws')).toBe("/bin/bash -c 'ls'");
  });

  it('keeps a multi-line command on one line', () => {
    const line = terminalCommandLine('/bin/bash', 'cat <<EOF\nhi\nEOF\necho done', '/ws', undefined);
    expect(line).not.toContain('\n');
    expect(line).toBe("cd -- '/ws' && /bin/bash -c $'cat <<EOF\\nhi\\nEOF\\necho done'");
  });

  it('quotes a shell path with spaces', () => {
    expect(terminalCommandLine('/opt/my tools/bash', 'ls', '/ws', '/ws')).toBe("'/opt/my tools/bash' -c 'ls'");
  });
});

describe('shellQuote', () => {
  const cases = [
    'plain',
    "it's",
    "''",
    'a\\b',
    '$HOME `id` $(id) "x"',
    'line1\nline2',
    "mixed 'quote'\nand \\ backslash\ttab",
    'bell\x07 and esc\x1b[0m',
    'carriage\r\nreturn',
    'ünïcödé ✓',
    '',
  ];
  for (const text of cases) {
    it(`bash reads back ${JSON.stringify(text)} unchanged`, () => {
      expect(bashReads(shellQuote(text))).toBe(text);
    });
  }
});
