import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { requireRealSandbox } from '../sandbox/sandboxFixture';
import { runCli, useCliRig } from './cliHarness';

// Reproduction 7 of issue 20: an allow rule allows reading, not writing through options.
const rules = ['find', 'sort', 'git log', 'git diff', 'sed', 'uniq', 'tar', 'python3 -m json.tool'];
const data = 'b keep\na keep\na keep\n';

const rig = useCliRig((box) => {
  writeFileSync(join(box.ws, 'data.txt'), data);
  writeFileSync(join(box.ws, 'victim.txt'), 'do not delete\n');
  writeFileSync(join(box.ws, 'in.json'), '{"a": 1}\n');
  mkdirSync(join(box.dir, 'packed'));
  writeFileSync(join(box.dir, 'packed', 'extracted.txt'), 'from the archive\n');
  execFileSync('tar', ['-cf', join(box.ws, 'archive.tar'), '-C', join(box.dir, 'packed'), 'extracted.txt']);
  mkdirSync(join(box.dir, 'outside'));
  execFileSync('git', ['init', '-q'], { cwd: box.ws });
  const env = { ...process.env, GIT_AUTHOR_NAME: 'F', GIT_AUTHOR_EMAIL: 'f@example.invalid', GIT_COMMITTER_NAME: 'F', GIT_COMMITTER_EMAIL: 'f@example.invalid' };
  execFileSync('git', ['add', '.'], { cwd: box.ws, env });
  execFileSync('git', ['commit', '-q', '-m', 'start'], { cwd: box.ws, env });
  writeFileSync(join(box.ws, 'data.txt'), `${data}changed\n`);
  writeFileSync(join(box.home, 'config.json'), JSON.stringify({ commands: { allow: rules } }));
});

function keel(turns: Turn[], args: string[]) {
  rig.server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', ...args], {
    KEEL_HOME: rig.box.home,
  });
}

const approvals = (lines: Array<Record<string, unknown>>) => lines.filter((l) => l.type === 'approval');

/** Commands each allowed by one of the rules above that write through their options or operands. */
function writers(outside: string): string[] {
  return [
    'find . -name victim.txt -delete',
    'sort -o sorted.txt data.txt',
    `sort -o ${outside}/sorted.txt data.txt`,
    'git log --output=log.txt',
    `git log --output=${outside}/log.txt`,
    'git diff --output=diff.txt',
    'sed -i s/keep/pwned/ data.txt',
    'uniq data.txt uniq.txt',
    'tar -xf archive.tar',
    'python3 -m json.tool in.json out.json',
  ];
}

/** What the host must still look like: nothing the commands above would write or remove. */
function expectNothingWritten(ws: string, outside: string): void {
  expect(readFileSync(join(ws, 'victim.txt'), 'utf8')).toBe('do not delete\n');
  expect(readFileSync(join(ws, 'data.txt'), 'utf8')).toBe(`${data}changed\n`);
  for (const name of ['sorted.txt', 'log.txt', 'diff.txt', 'uniq.txt', 'extracted.txt', 'out.json']) {
    expect(existsSync(join(ws, name)), name).toBe(false);
  }
  expect(readdirSync(outside)).toEqual([]);
}

describe('an allow rule allows reading (reproduction 7), with the real bubblewrap', () => {
  beforeAll(requireRealSandbox);

  it('in manual mode, commands run by an allow rule get a read-only workspace: their writes fail and the host is unchanged', async () => {
    const outside = join(rig.box.dir, 'outside');
    const commands = writers(outside);
    const r = await keel([...commands.map((command) => reply.tool('bash', { command })), reply.text('done')], ['--approval', 'manual', 'go']);
    expect(r.code).toBe(0);
    // Not asked: the rules allow them; the sandbox holds them to reading.
    expect(approvals(r.lines).map((a) => a.approved)).toEqual(commands.map(() => true));
    expectNothingWritten(rig.box.ws, outside);
    const results = r.lines.filter((l) => l.type === 'tool_result' && l.name === 'bash');
    expect(String(results[1].output)).toMatch(/writable: true/);
  });

  it('reading under the same rules still works and gives the output', async () => {
    const commands = ['find . -name victim.txt', 'sort data.txt', 'git log --oneline', 'uniq data.txt', 'tar -tf archive.tar', 'python3 -m json.tool in.json'];
    const r = await keel([...commands.map((command) => reply.tool('bash', { command })), reply.text('done')], ['--approval', 'manual', 'go']);
    expect(r.code).toBe(0);
    const outputs = r.lines.filter((l) => l.type === 'tool_result' && l.name === 'bash').map((l) => String(l.output));
    expect(outputs).toHaveLength(commands.length);
    for (const out of outputs) expect(out).toMatch(/Exit code: 0$/);
    expect(outputs[0]).toMatch(/victim\.txt/);
    expect(outputs[4]).toMatch(/extracted\.txt/);
  });

  it('asking for write access asks the person; in autoEdit the allowed command keeps its writable workspace', async () => {
    const manual = await keel([reply.tool('bash', { command: 'sort -o sorted.txt data.txt', writable: true }), reply.text('done')], ['--approval', 'manual', 'go']);
    expect(approvals(manual.lines).map((a) => [a.approved, a.reason])).toEqual([[false, expect.stringMatching(/write access/)]]);
    expect(existsSync(join(rig.box.ws, 'sorted.txt'))).toBe(false);

    const autoEdit = await keel([reply.tool('bash', { command: 'sort -o sorted.txt data.txt' }), reply.text('done')], ['--approval', 'autoEdit', 'go']);
    expect(approvals(autoEdit.lines).map((a) => a.approved)).toEqual([true]);
    expect(readFileSync(join(rig.box.ws, 'sorted.txt'), 'utf8')).toBe('a keep\na keep\nb keep\nchanged\n');
  });
});

describe('an allow rule allows reading without a sandbox (reproduction 7, --sandbox off)', () => {
  it('an allowed command whose options are not known to only read is asked, and with no one to ask nothing is written', async () => {
    const outside = join(rig.box.dir, 'outside');
    const commands = writers(outside);
    const r = await keel([...commands.map((command) => reply.tool('bash', { command })), reply.text('done')], ['--approval', 'manual', '--sandbox', 'off', 'go']);
    expect(r.code).toBe(0);
    expect(approvals(r.lines).map((a) => [a.approved, a.reason])).toEqual(commands.map(() => [false, expect.stringMatching(/not known to only read/)]));
    expectNothingWritten(rig.box.ws, outside);
  });

  it('the read-only forms under the same rules still run unasked; python3 -m, which imports from the workspace, asks', async () => {
    const commands = ['find . -name victim.txt -print', 'sort -r data.txt', 'git log --oneline -n 1', 'git diff --stat', 'uniq -c data.txt', 'tar -tvf archive.tar'];
    const r = await keel(
      [...commands.map((command) => reply.tool('bash', { command })), reply.tool('bash', { command: 'python3 -m json.tool in.json' }), reply.text('done')],
      ['--approval', 'manual', '--sandbox', 'off', 'go'],
    );
    expect(r.code).toBe(0);
    // `python3 -m json.tool` runs a json/ package the repository ships: it is not a read.
    expect(approvals(r.lines).map((a) => a.approved)).toEqual([...commands.map(() => true), false]);
  });
});
