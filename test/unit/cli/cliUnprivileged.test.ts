import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { requireRealSandbox } from '../sandbox/sandboxFixture';
import { buildCli, runCli } from './cliHarness';

/**
 * Issue #20, reproductions 4 and 6 as an unprivileged user: `keel run` as `nobody` (when the
 * tests run as root; as the current user otherwise), in autoEdit with the real bubblewrap. A
 * host server on a socket anyone may connect to logs every connection; `env` in the command
 * shows no token. The host's log stays empty.
 */
const nobody = { uid: 65534, gid: 65534 };
const asRoot = process.getuid?.() === 0;
const user = asRoot ? nobody : undefined;
/** Not the root's PATH: a pyenv or cargo folder under /root is closed to another user. */
const userPath = '/usr/local/bin:/usr/bin:/bin';
const marker = 'marker-unprivileged-token-0009';

describe('keel run as an unprivileged user: no host sockets, no secrets (real bubblewrap)', () => {
  let dir: string;
  let cli: string;
  let server: ScriptedServer;
  let socketServer: Server;
  let socketPath: string;
  let log: string;

  beforeAll(async () => {
    await requireRealSandbox();
    cli = await buildCli();
    server = await startScriptedServer();
    dir = mkdtempSync('/var/tmp/keel-unprivileged-');
    for (const sub of ['home', 'home/.colima', 'ws']) mkdirSync(join(dir, sub), { recursive: true });
    log = join(dir, 'connections.log');
    writeFileSync(log, '');
    socketPath = join(dir, 'home', '.colima', 'docker.sock');
    socketServer = createServer((conn) => {
      appendFileSync(log, 'connected\n');
      conn.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
    chmodSync(socketPath, 0o777);
    if (asRoot) {
      for (const path of [dir, join(dir, 'home'), join(dir, 'home', '.colima'), join(dir, 'ws')]) chownSync(path, nobody.uid, nobody.gid);
      chmodSync(dirname(cli), 0o755);
      chmodSync(cli, 0o644);
    }
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => socketServer?.close(resolve));
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const connect = `node -e "const c=require('net').connect(process.argv[1]);c.on('data',d=>{process.stdout.write(d);process.exit(0)});c.on('error',e=>{console.log('refused', e.code);process.exit(3)})"`;

  it('the user can reach the socket outside the sandbox (the check can fail)', async () => {
    // Not execFileSync: the server answering is in this process.
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', `${connect} '${socketPath}'`], { ...user, env: { PATH: userPath }, encoding: 'utf8' });
    expect(stdout).toContain('hello from the host');
    expect(readFileSync(log, 'utf8')).toBe('connected\n');
    writeFileSync(log, '');
  });

  it('inside the sandbox the command reaches no host socket and sees no token', async () => {
    server.load({
      turns: [reply.tool('bash', { command: `${connect} '${socketPath}'` }), reply.tool('bash', { command: 'env; id -u' }), reply.text('done')],
    });
    const r = await runCli(
      cli,
      ['run', '--cwd', join(dir, 'ws'), '--model', 'scripted-model', '--base-url', server.baseURL, '--output', 'stream-json', '--approval', 'autoEdit', 'go'],
      { PATH: userPath, HOME: join(dir, 'home'), KEEL_HOME: join(dir, 'home', '.keel'), GITHUB_TOKEN: marker, OPENAI_API_KEY: marker },
      undefined,
      user,
    );
    expect(r.code, r.stderr).toBe(0);
    const results = r.lines.filter((l) => l.type === 'tool_result');
    expect(results.map((l) => l.sandboxed)).toEqual([true, true]);
    expect(String(results[0].output)).toMatch(/refused E(PERM|NOENT|ACCES|CONNREFUSED)/);
    expect(String(results[1].output)).toMatch(/\nPATH=/);
    expect(String(results[1].output)).not.toContain(marker);
    if (asRoot) expect(String(results[1].output)).toMatch(/\n65534\n/);
    expect(readFileSync(log, 'utf8')).toBe('');
  });
});
