import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCommand } from '../../../src/core/shell/commandRules';
import { Workspace } from '../../../src/core/workspace/workspace';

let dir: string;
let workspace: Workspace;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-readonly-')));
  mkdirSync(join(dir, 'ws'));
  workspace = await Workspace.create([{ path: join(dir, 'ws') }]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function notReadOnly(command: string): Promise<string | undefined> {
  const check = await checkCommand(command, { allow: [], deny: [] }, { cwd: join(dir, 'ws'), workspace, home: dir });
  return check.notReadOnly;
}

// Without an OS sandbox, these are the only commands an allow rule runs unasked.
describe('commands known to only read', () => {
  const reads = [
    'find . -name "*.ts" -type f -print',
    'find -L src ( -name a -o -iname b ) -maxdepth 2 -newer package.json -ls',
    'sort -rn -k 2 -t , data.csv',
    'sort --key=2 --unique a.txt b.txt',
    'uniq -c data.txt',
    'git log --oneline -n 5 --author=me -- src',
    'git show --stat HEAD',
    'git diff --cached --stat -U3',
    'git status -sb',
    'tar -tvf archive.tar',
    'tar --list --file=archive.tar.gz --gzip',
    'cat -n a b | head -20 | wc -l',
    "grep -rn --include='*.ts' x src",
    'ls -la src && pwd',
    'echo -e "a\\tb"',
    'tail -f -n 100 log.txt',
    'diff -u a b',
    'bash -c "cat a"',
  ];
  for (const command of reads) {
    it(command, async () => expect(await notReadOnly(command)).toBeUndefined());
  }
});

describe('commands not known to only read', () => {
  const writes: [string, RegExp][] = [
    ['find . -delete', /find -delete/],
    ['find . -exec rm {} ;', /-exec|rm/],
    ['find . -fprint out.txt', /-fprint/],
    ['sort -o out.txt data.txt', /sort -o/],
    ['sort --output=out.txt data.txt', /--output/],
    ['sort --compress-program=sh data.txt', /--compress-program/],
    ['sort -T /x data.txt', /sort -T/],
    ['git log --output=log.txt', /--output/],
    ['git diff --output=diff.txt', /--output/],
    ['git diff --ext-diff', /--ext-diff/],
    ['git -c core.pager=sh log', /git -c/],
    ['git commit -m x', /git commit/],
    ['git branch topic', /git branch/],
    ['sed -n 1p data.txt', /sed/],
    ['sed -i s/a/b/ data.txt', /sed/],
    ['uniq data.txt out.txt', /more than 1/],
    ['tar -xf archive.tar', /tar -xf/],
    ['tar -cf out.tar data.txt', /tar -cf/],
    ['tar -f archive.tar', /without -t or --list/],
    ['python3 -m json.tool in.json', /python3/],
    ['npm test', /npm/],
    ['./find .', /\.\/find/],
    ['LD_PRELOAD=x.so cat a', /LD_PRELOAD=/],
    ['cat a | tee b', /tee/],
    ['cat $(sed -i s/a/b/ x)', /sed/],
    ['xargs rm < list', /rm/],
    ['sort "$OPT" data.txt', /not known until the command runs/],
  ];
  for (const [command, why] of writes) {
    it(command, async () => expect(await notReadOnly(command)).toMatch(why));
  }
});
