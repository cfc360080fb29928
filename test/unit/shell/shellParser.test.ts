import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Command, SimpleCommand } from '../../../src/core/shell/shellAst';
import { ShellParseError } from '../../../src/core/shell/shellCursor';
import { parseShell } from '../../../src/core/shell/shellParser';
import { staticValue } from '../../../src/core/shell/wordValue';

function simple(command: Command | undefined): SimpleCommand {
  if (command?.type !== 'simple') throw new Error(`expected a simple command, got ${command?.type}`);
  return command;
}

function wordsOf(source: string): (string | null)[] {
  const script = parseShell(source);
  return simple(script.items[0]?.first.commands[0]).words.map(staticValue);
}

/** What bash itself makes of the words, one per line of printf output. */
function bashWords(source: string): string[] {
  const run = spawnSync('bash', ['-c', `printf '%s\\0' ${source}`], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stdout.split('\0').slice(0, -1);
}

describe('words, as bash reads them', () => {
  it.each([
    "a'b c'd",
    '"x\\"y"',
    "'it'\\''s'",
    'a\\ b',
    '"a\\\\b"',
    '"\\$x"',
    'a\\\nb',
    '"a\'b"',
    "'' \"\"",
    '"\\a"',
    'a#b',
    '-I{} {}',
    'x=1',
    '"line\nbreak"',
    "'$(not run)'",
    '\\$HOME',
    '"a\\`b"',
  ])('%j', (source) => {
    expect(wordsOf(`printf ${source}`).slice(1)).toEqual(bashWords(source));
  });

  it('marks words that expand as unknown', () => {
    expect(wordsOf('echo $HOME ${USER} $1 "$@" *.ts a?c [ab] {a,b} {1..3} ~ $\'x\' $(pwd) `pwd`')).toEqual([
      'echo', null, null, null, null, null, null, null, null, null, null, null, null, null,
    ]);
  });

  it('keeps a lone bracket and a dollar sign that expands nothing', () => {
    expect(wordsOf('[ -f x ] $ a$')).toEqual(['[', '-f', 'x', ']', '$', 'a$']);
  });
});

describe('structure', () => {
  it('splits lists, pipelines and background jobs', () => {
    const script = parseShell('a && b || c; d | e |& f & g\nh');
    expect(script.items).toHaveLength(4);
    expect(script.items[0].rest.map((r) => r.op)).toEqual(['&&', '||']);
    expect(script.items[1].first.commands).toHaveLength(3);
    expect(script.items[1].background).toBe(true);
  });

  it('reads assignments only before the command name', () => {
    const cmd = simple(parseShell('A=1 B+=x cmd C=3').items[0].first.commands[0]);
    expect(cmd.assignments.map((a) => [a.name, a.append, staticValue(a.value)])).toEqual([
      ['A', false, '1'],
      ['B', true, 'x'],
    ]);
    expect(cmd.words.map(staticValue)).toEqual(['cmd', 'C=3']);
  });

  it('reads redirections with their descriptors', () => {
    const cmd = simple(parseShell('cmd 2>&1 >out 2>>log &>all <in 3<>rw >&2').items[0].first.commands[0]);
    expect(cmd.redirects.map((r) => [r.fd, r.op, staticValue(r.target)])).toEqual([
      [2, '>&', '1'],
      [undefined, '>', 'out'],
      [2, '>>', 'log'],
      [undefined, '&>', 'all'],
      [undefined, '<', 'in'],
      [3, '<>', 'rw'],
      [undefined, '>&', '2'],
    ]);
  });

  it('reads here-doc bodies after the line, quoted ones literally, <<- without leading tabs', () => {
    const script = parseShell("cat <<A <<-'B'; echo next\nbody $(x)\nA\n\tliteral $(y)\n\tB\necho after");
    const cmd = simple(script.items[0].first.commands[0]);
    expect(cmd.redirects[0].hereDoc?.quoted).toBe(false);
    expect(cmd.redirects[0].hereDoc?.body.parts.some((p) => p.kind === 'commandSub')).toBe(true);
    expect(cmd.redirects[1].hereDoc).toEqual({ quoted: true, body: { parts: [{ kind: 'text', text: 'literal $(y)\n' }], raw: 'literal $(y)\n' } });
    expect(script.items.map((i) => staticValue(simple(i.first.commands[0]).words[0]))).toEqual(['cat', 'echo', 'echo']);
  });

  it('joins backslash-newline in an unquoted here-doc before looking for its end, as bash does', () => {
    const script = parseShell('cat <<EOF\nx\\\nEOF\nin body\nEOF\nafter');
    const cmd = simple(script.items[0].first.commands[0]);
    expect(staticValue(cmd.redirects[0].hereDoc!.body)).toBe('xEOF\nin body\n');
    expect(script.items.map((i) => staticValue(simple(i.first.commands[0]).words[0]))).toEqual(['cat', 'after']);
  });

  it('parses compound commands', () => {
    const script = parseShell('if a; then b; elif c; then d; else e; fi; while f; do g; done; for x in 1 2; do h; done; (i); { j; }');
    expect(script.items.map((i) => i.first.commands[0].type)).toEqual(['if', 'while', 'for', 'subshell', 'group']);
  });

  it('treats keywords as words outside command position', () => {
    expect(wordsOf('echo if then fi } done')).toEqual(['echo', 'if', 'then', 'fi', '}', 'done']);
  });

  it('follows comments to the end of the line only', () => {
    const script = parseShell('a # b; c\nd');
    expect(script.items.map((i) => staticValue(simple(i.first.commands[0]).words[0]))).toEqual(['a', 'd']);
  });
});

describe('what it refuses', () => {
  it.each([
    ['case x in y) z;; esac', /case/],
    ['[[ -f x ]]', /\[\[/],
    ['(( x++ ))', /arithmetic/],
    ['echo $((1+2))', /arithmetic/],
    ['echo $[1+2]', /arithmetic/],
    ['echo ${x:-$(y)}', /parameter expansion/],
    ['echo ${#x}', /parameter expansion/],
    ['f() { x; }', /\(/],
    ['function f { x; }', /function/],
    ['a=(1 2)', /\(/],
    ['ls @(a|b)', /extended glob/],
    ['echo "open', /unterminated double quote/],
    ["echo 'open", /unterminated single quote/],
    ['echo `open', /unterminated backtick/],
    ['echo $(open', /unexpected end/],
    ['a &&', /unexpected end/],
    ['| a', /unexpected "\|"/],
    ['a ;; b', /case/],
    ['{ }', /no commands|unexpected/],
    ['exec {fd}>x', /named file descriptors/],
    ['coproc x', /coproc/],
    ['echo $(cat <<EOF)\nx\nEOF', /here-doc/],
    ['select x in a; do b; done', /select/],
  ])('%j', (source, message) => {
    expect(() => parseShell(source)).toThrow(ShellParseError);
    expect(() => parseShell(source)).toThrow(message);
  });

  it('gives up on deep nesting instead of overflowing the stack', () => {
    const deep = `${'$('.repeat(200)}x${')'.repeat(200)}`;
    expect(() => parseShell(deep)).toThrow(/nested more than/);
    expect(() => parseShell(`${'( '.repeat(5000)}x${' )'.repeat(5000)}`)).toThrow(/nested more than/);
    expect(() => parseShell(`${'{ '.repeat(5000)}x${'; }'.repeat(5000)}`)).toThrow(/nested more than/);
  });
});
