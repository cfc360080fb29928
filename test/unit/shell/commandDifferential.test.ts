import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../src/core/shell/commandAnalysis';

// Runs command lines in real bash with logging stand-ins for ka, kb and kc on PATH, and checks
// that every stand-in bash actually ran is one of the commands the analysis found.

let dir: string;
let log: string;
const shims = ['ka', 'kb', 'kc'];

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-diff-')));
  log = join(dir, 'ran.log');
  for (const name of shims) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\necho ${name} >> "${log}"\necho ${name}-output\n`);
    chmodSync(file, 0o755);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function ranInBash(command: string): string[] {
  writeFileSync(log, '');
  const run = spawnSync('bash', ['-c', `exec 2>&1; ${command}`], {
    cwd: dir,
    env: { PATH: `${dir}${delimiter}${process.env.PATH ?? ''}`, HOME: dir },
    input: '',
    encoding: 'utf8',
    timeout: 10_000,
  });
  expect(run.error).toBeUndefined();
  return [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))].sort();
}

/** The first word after the assignments; null when it is only known at run time. */
function commandName(words: (string | null)[]): string | null | undefined {
  return words.find((w) => w === null || !/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w));
}

/**
 * The command names the analysis found, or 'blocked' when some command cannot be approved by
 * any rule (blocked, or a name only known when it runs).
 */
function foundByAnalysis(command: string): string[] | 'blocked' {
  const { uses } = analyzeCommand(command, { cwd: dir, home: dir });
  if (uses.some((u) => u.blocked !== undefined || (u.words !== undefined && commandName(u.words) === null))) return 'blocked';
  const names = uses.flatMap((u) => u.forms.map((f) => f[0] ?? null)).filter((w): w is string => w !== null);
  return [...new Set(names)].sort();
}

describe('every command bash runs is found', () => {
  it.each([
    'ka && kb || kc',
    'ka; kb & wait',
    'ka | kb |& kc',
    'ka\nkb',
    'echo $(ka) `kb` "$(kc)"',
    'x=$(ka) kb',
    'x=$(ka)',
    'cat <(ka) > /dev/null; echo > >(kb)',
    'cat <<EOF\n$(ka)\nEOF\ncat <<\'EOF\'\n$(kb)\nEOF',
    'cat <<< "$(ka)"',
    '{ ka; kb; }; (kc)',
    'if ka; then kb; else kc; fi',
    'while ! ka; do kb; done; until ka; do :; done',
    'for i in $(ka) x; do kb; done',
    'eval "ka; kb"',
    "bash -c 'ka && kb'",
    "sh -c \"kc\"",
    'bash <<EOF\nka\nkb\nEOF',
    'echo ka | bash',
    'env X=1 ka; nohup kb > /dev/null; time kc',
    'command ka; builtin eval kb; exec kc',
    'echo a | xargs ka',
    'echo a | xargs -I{} sh -c "kb {}"',
    'find . -maxdepth 0 -exec ka {} \\; -exec kb {} +',
    'ka # ; kb',
    'k\\a; "kb"; \'kc\'',
    'ka \\\n&& kb',
    'echo "$(echo "$(ka)")"',
    'echo `echo \\`kb\\``',
    '! ka | kb',
    'timeout 5 ka; nice -n 1 kb; stdbuf -oL kc',
    'cd /; ka',
    'cat <<EOF\nx\\\nEOF\nka\nEOF\nkb',
    'cat <<\'EOF\'\nx\\\nEOF\nka\nEOF',
  ])('%j', (command) => {
    const ran = ranInBash(command);
    expect(ran.length).toBeGreaterThan(0);
    const found = foundByAnalysis(command);
    if (found === 'blocked') return;
    for (const name of ran) expect(found).toContain(name);
  });

  it.each(['echo ka | bash', 'echo a | xargs -I{} sh -c "kb {}"', 'x=ka; $x', 'sudo -n ka'])('%j cannot be approved by a rule', (command) => {
    expect(foundByAnalysis(command)).toBe('blocked');
  });
});
