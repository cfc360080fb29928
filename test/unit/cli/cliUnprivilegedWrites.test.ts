import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { folderSwapRacer } from '../sandbox/folderSwapRacer';
import { requireRealSandbox } from '../sandbox/sandboxFixture';
import { buildCli, runCli } from './cliHarness';

/**
 * Issue #20, reproductions 5 and 7 as an unprivileged user: `keel run` as `nobody` (when the
 * tests run as root; as the current user otherwise) with the real bubblewrap. An allow rule
 * still only lets a command read, and a command racing Keel's writes still cannot redirect them.
 * What counts is the host's files afterwards.
 */
const nobody = { uid: 65534, gid: 65534 };
const asRoot = process.getuid?.() === 0;
const user = asRoot ? nobody : undefined;
/** Not the root's PATH: a pyenv or cargo folder under /root is closed to another user. */
const userPath = '/usr/local/bin:/usr/bin:/bin';
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'F', GIT_AUTHOR_EMAIL: 'f@example.invalid', GIT_COMMITTER_NAME: 'F', GIT_COMMITTER_EMAIL: 'f@example.invalid' };

describe('as an unprivileged user: an allow rule allows reading, and Keel writes through no link (real bubblewrap)', () => {
  let dir: string;
  let ws: string;
  let home: string;
  let outside: string;
  let cli: string;
  let server: ScriptedServer;

  beforeAll(async () => {
    await requireRealSandbox();
    cli = await buildCli();
    server = await startScriptedServer();
    dir = mkdtempSync('/var/tmp/keel-unprivileged-writes-');
    ws = join(dir, 'ws');
    home = join(dir, 'home');
    outside = join(dir, 'outside');
    for (const sub of [ws, home, outside, join(ws, 'dir'), join(ws, '.vscode')]) mkdirSync(sub, { recursive: true });
    writeFileSync(join(ws, 'data.txt'), 'b keep\na keep\n');
    writeFileSync(join(ws, 'victim.txt'), 'do not delete\n');
    writeFileSync(join(ws, '.vscode', 'settings.json'), '{}\n');
    writeFileSync(join(ws, 'racer.py'), folderSwapRacer);
    symlinkSync(outside, join(ws, 'out'));
    symlinkSync('.vscode', join(ws, 'vs'));
    execFileSync('git', ['init', '-q'], { cwd: ws });
    execFileSync('git', ['add', '.'], { cwd: ws, env: gitEnv });
    execFileSync('git', ['commit', '-q', '-m', 'start'], { cwd: ws, env: gitEnv });
    writeFileSync(join(home, 'config.json'), JSON.stringify({ commands: { allow: ['find', 'sort', 'sed', 'git log'] } }));
    if (asRoot) {
      execFileSync('chown', ['-R', `${nobody.uid}:${nobody.gid}`, dir]);
      chmodSync(dirname(cli), 0o755);
      chmodSync(cli, 0o644);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function keel(approval: string) {
    return runCli(
      cli,
      ['run', '--cwd', ws, '--model', 'scripted-model', '--base-url', server.baseURL, '--output', 'stream-json', '--approval', approval, 'go'],
      { PATH: userPath, HOME: home, KEEL_HOME: home },
      undefined,
      user,
    );
  }

  it('in manual mode, commands an allow rule runs cannot write through their options (reproduction 7)', async () => {
    const commands = ['find . -name victim.txt -delete', 'sort -o sorted.txt data.txt', `sort -o ${outside}/sorted.txt data.txt`, 'sed -i s/keep/pwned/ data.txt', 'git log --output=log.txt'];
    server.load({ turns: [...commands.map((command) => reply.tool('bash', { command })), reply.text('done')] });
    const r = await keel('manual');
    expect(r.code, r.stderr).toBe(0);
    // Not asked (the rules allow them), and sandboxed as this user.
    expect(r.lines.filter((l) => l.type === 'approval').map((a) => a.approved)).toEqual(commands.map(() => true));
    expect(r.lines.filter((l) => l.type === 'tool_result').map((l) => l.sandboxed)).toEqual(commands.map(() => true));
    expect(readFileSync(join(ws, 'victim.txt'), 'utf8')).toBe('do not delete\n');
    expect(readFileSync(join(ws, 'data.txt'), 'utf8')).toBe('b keep\na keep\n');
    for (const name of ['sorted.txt', 'log.txt']) expect(existsSync(join(ws, name)), name).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
  }, 120_000);

  it('while a background command swaps the folder with links, no write lands outside the workspace or in .vscode (reproduction 5)', async () => {
    const writes = Array.from({ length: 10 }, (_, t) =>
      reply.tools(Array.from({ length: 10 }, (_, k) => ({ name: 'write', arguments: { file_path: `dir/note-${t * 10 + k}.txt`, content: 'x\n' } }))),
    );
    server.load({ turns: [reply.tool('bash', { command: 'python3 racer.py', run_in_background: true }), ...writes, reply.text('done')] });
    const r = await keel('autoEdit');
    expect(r.code, r.stderr).toBe(0);
    expect(String(r.lines.find((l) => l.type === 'tool_result' && l.name === 'bash')?.output)).toMatch(/racing/);
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(join(ws, '.vscode'))).toEqual(['settings.json']);
    expect(readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
    for (const link of ['out', 'vs']) {
      const path = join(ws, link);
      expect(lstatSync(path).isSymbolicLink() || lstatSync(path).isDirectory(), link).toBe(true);
    }
  }, 120_000);
});
