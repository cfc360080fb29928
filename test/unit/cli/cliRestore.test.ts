import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();

const crlfBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\n')]);

function seed(ws: string): void {
  writeFileSync(join(ws, 'crlf.txt'), crlfBom);
  writeFileSync(join(ws, 'gone.txt'), 'bye\n');
  writeFileSync(join(ws, 'a.txt'), 'moved\n');
  writeFileSync(join(ws, 'tool.sh'), '#!/bin/sh\n');
  chmodSync(join(ws, 'tool.sh'), 0o755);
  writeFileSync(join(ws, '.gitignore'), 'node_modules/\n');
  mkdirSync(join(ws, 'node_modules'));
  writeFileSync(join(ws, 'node_modules', 'dep.js'), 'dep\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: ws, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
}

function state(ws: string): string {
  return ['crlf.txt', 'gone.txt', 'a.txt', 'b.txt', 'new.txt', 'tool.sh', 'node_modules/dep.js']
    .map((f) => {
      const p = join(ws, f);
      return existsSync(p) ? `${f} ${(statSync(p).mode & 0o777).toString(8)} ${readFileSync(p).toString('hex')}` : `${f} absent`;
    })
    .join('\n');
}

const command = "sed -i 's/two/TWO/' crlf.txt && rm gone.txt && git mv a.txt b.txt && echo new > new.txt && chmod -x tool.sh && echo changed > node_modules/dep.js";

describe('keel restore', () => {
  it('puts back what a command changed (bytes, CRLF, BOM, mode, renames), blocks on a change made since, and --force restores anyway', async () => {
    seed(rig.box.ws);
    const before = state(rig.box.ws);
    const gitStatus = () => execFileSync('git', ['status', '--porcelain'], { cwd: rig.box.ws, encoding: 'utf8' });
    rig.server.load({ turns: [reply.tool('bash', { command }), reply.text('done')] });
    const run = await runCli(
      rig.cli,
      ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'yolo', 'change'],
      { KEEL_HOME: rig.box.home },
    );
    expect(run.code).toBe(0);
    const result = run.lines.find((l) => l.type === 'tool_result');
    expect((result?.changes as Array<{ path: string; kind: string }>).map((c) => `${c.kind} ${c.path}`).sort()).toEqual([
      'added b.txt',
      'added new.txt',
      'deleted a.txt',
      'deleted gone.txt',
      'modified crlf.txt',
      'modified tool.sh',
    ]);
    const sessionId = String(run.lines.at(-1)?.sessionId);
    const afterNodeModules = readFileSync(join(rig.box.ws, 'node_modules', 'dep.js'), 'utf8');

    // The person changes a file the command made: restore refuses and changes nothing.
    writeFileSync(join(rig.box.ws, 'new.txt'), 'mine\n');
    const blocked = await runCli(rig.cli, ['restore', '--cwd', rig.box.ws, '--session', sessionId], { KEEL_HOME: rig.box.home });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('new.txt');
    expect(blocked.stderr).toContain('--force');
    expect(existsSync(join(rig.box.ws, 'gone.txt'))).toBe(false);

    const forced = await runCli(rig.cli, ['restore', '--cwd', rig.box.ws, '--session', sessionId, '--turn', '1', '--force'], { KEEL_HOME: rig.box.home });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('gone.txt');
    expect(forced.stdout).toContain('crlf.txt');
    // git mv staged the rename in the person's index; the files themselves are back as they were.
    expect(state(rig.box.ws)).toBe(before.replace(/node_modules\/dep.js .*/, `node_modules/dep.js 644 ${Buffer.from(afterNodeModules).toString('hex')}`));
    expect(readFileSync(join(rig.box.ws, 'crlf.txt'))).toEqual(crlfBom);
    expect(gitStatus()).not.toContain('crlf.txt');

    const again = await runCli(rig.cli, ['restore', '--cwd', rig.box.ws, '--session', sessionId], { KEEL_HOME: rig.box.home });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('no files');
  });
});
