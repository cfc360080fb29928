import { randomBytes } from 'node:crypto';
import { accessSync, constants, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bubblewrapBackend, findBwrap } from '../../../src/core/sandbox/bubblewrap';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import { detectSandbox } from '../../../src/core/sandbox/detectSandbox';
import { forgetSandboxLayouts } from '../../../src/core/sandbox/sandboxLayout';
import { requireRealSandbox, runSandboxed, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

/**
 * Issue #20, reproduction 4: a sandboxed command connects to a host daemon's Unix socket (a
 * Docker socket is root on the machine). Servers on the host log every connection to a file;
 * after the sandboxed clients tried, with and without the network, the logs are empty.
 */
describe('no host sockets from the sandbox (real bubblewrap)', () => {
  let f: SandboxFixture;
  const servers: Server[] = [];
  let log: string;
  const sockets: Record<string, string> = {};

  function listen(name: string, path: string): Promise<void> {
    const server = createServer((conn) => {
      appendFileSync(log, `${name}\n`);
      conn.end('hello from the host\n');
    });
    servers.push(server);
    sockets[name] = path;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  }

  beforeAll(async () => {
    await requireRealSandbox();
    f = await sandboxFixture();
    log = join(f.root, 'connections.log');
    writeFileSync(log, '');
    const colima = join(f.home, '.colima', 'default');
    await mkdir(colima, { recursive: true });
    await listen('a Docker-style socket under the home folder', join(colima, 'docker.sock'));
    await listen('a socket in the workspace', join(f.ws, 'dev.sock'));
    await listen('an abstract socket', `\0keel-test-${randomBytes(6).toString('hex')}`);
    if (writable('/run')) await listen('a socket under /run', `/run/keel-test-${randomBytes(6).toString('hex')}.sock`);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await f?.dispose();
  });

  it('the servers answer a client on the host (the check can see a connection)', async () => {
    const { connect } = await import('node:net');
    for (const path of Object.values(sockets)) {
      await new Promise<void>((resolve, reject) => {
        const c = connect(path, () => c.end());
        c.resume();
        c.on('close', () => resolve());
        c.on('error', reject);
      });
    }
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(Object.keys(sockets).length);
    writeFileSync(log, '');
  });

  const clients: Record<string, (path: string) => string> = {
    python3: (p) =>
      `python3 -c "import socket,sys; a=sys.argv[1]; s=socket.socket(socket.AF_UNIX); s.connect(chr(0)+a[1:] if a[0]=='@' else a); print(s.recv(100))" ${shellArg(p)}`,
    node: (p) =>
      `node -e "const a=process.argv[1];const c=require('net').connect(a[0]==='@'?'\\0'+a.slice(1):a);c.on('data',d=>{process.stdout.write(d);process.exit(0)});c.on('error',e=>{console.error(e.message);process.exit(3)})" ${shellArg(p)}`,
  };

  for (const network of [false, true]) {
    for (const [client, command] of Object.entries(clients)) {
      it(`${client} reaches no host socket ${network ? 'with' : 'without'} the network`, async () => {
        for (const [what, path] of Object.entries(sockets)) {
          const ran = await runSandboxed(f, command(path), { network });
          expect(ran.code, `${client} → ${what}: ${ran.output}`).not.toBe(0);
          expect(ran.output, what).not.toContain('hello from the host');
        }
        expect(readFileSync(log, 'utf8')).toBe('');
      });
    }
  }

  it('a command cannot make a Unix socket of its own or reach the kernel through other families, and sees no filter descriptor', async () => {
    const ran = await runSandboxed(
      f,
      `python3 -c "
import socket, os
for name, fam in [('unix', socket.AF_UNIX), ('packet', 17), ('vsock', 40), ('alg', 38)]:
    try:
        socket.socket(fam, socket.SOCK_STREAM if fam != 17 else socket.SOCK_RAW); print(name, 'made')
    except OSError as e: print(name, 'refused', e.errno)
try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 9); print('netlink-audit made')
except OSError as e: print('netlink-audit refused', e.errno)
" && echo fds && ls -l /proc/self/fd/`,
    );
    expect(ran.output).toContain('unix refused 1');
    expect(ran.output).toContain('vsock refused 1');
    expect(ran.output).toContain('alg refused 1');
    expect(ran.output).toContain('netlink-audit refused 1');
    expect(ran.output).not.toContain('made');
    expect(ran.output).toContain('fds\n');
    expect(ran.output).not.toMatch(/keel-seccomp|\.bpf/);
  });

  it('ordinary programs keep working: git, npm, node with worker threads and child IPC, network interfaces, python multiprocessing', async () => {
    await writeFile(
      join(f.ws, 'probe.js'),
      [
        "const { Worker } = require('worker_threads');",
        "const w = new Worker('require(\"worker_threads\").parentPort.postMessage(6 * 7)', { eval: true });",
        "w.on('message', (m) => {",
        "  console.log('worker', m);",
        "  const c = require('child_process').fork(__dirname + '/child.js');",
        "  c.on('message', (x) => { console.log(x); console.log('interfaces', Object.keys(require('os').networkInterfaces()).join(',')); });",
        '});',
      ].join('\n'),
    );
    await writeFile(join(f.ws, 'child.js'), "process.send('ipc ok', () => process.exit(0));\n");
    await writeFile(
      join(f.ws, 'probe.py'),
      'import multiprocessing as m, subprocess\nif __name__ == "__main__":\n    with m.Pool(2) as p: print("pool", p.map(abs, [-1, -2]))\n    print(subprocess.run(["echo", "sub ok"], capture_output=True, text=True).stdout.strip())\n',
    );
    const ran = await runSandboxed(f, 'git status --short && npm --version && node probe.js && python3 probe.py && getent hosts localhost');
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain('worker 42');
    expect(ran.output).toContain('ipc ok');
    expect(ran.output).toMatch(/interfaces .*lo/);
    expect(ran.output).toContain('pool [1, 2]');
    expect(ran.output).toContain('sub ok');
  });

  it('without the filter (a kernel that cannot load it), the daemon sockets under the home folder and /run are still covered, and the sandbox says it is weaker', async () => {
    const bwrap = await findBwrap(process.env.PATH);
    if (!bwrap) throw new Error('bwrap is not on PATH');
    const backend = bubblewrapBackend(bwrap, undefined, 'the test gave none');
    expect(backend.weaknesses.map((w) => w.protection)).toEqual(['host-sockets']);
    expect(backend.weaknesses[0].reason).toContain('the test gave none');
    forgetSandboxLayouts();
    const weak = new CommandSandbox({ mode: 'auto', folders: [f.ws], home: f.home, keelHome: f.keelHome, detect: async () => ({ available: true, backend }) });
    const covered = Object.entries(sockets).filter(([what]) => what.includes('home folder') || what.includes('/run'));
    for (const [what, path] of covered) {
      const ran = await runSandboxed({ ...f, sandbox: weak }, clients.python3(path), { network: true });
      expect(ran.code, `${what}: ${ran.output}`).not.toBe(0);
    }
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('the detected bubblewrap has the filter here, and so no weakness', async () => {
    const found = await detectSandbox();
    expect(found.available && found.backend.weaknesses).toEqual([]);
  });
});

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'EACCES' || err.code === 'EROFS' || err.code === 'ENOENT')) return false;
    throw err;
  }
}

/** The path as one shell word; an abstract name (leading NUL) is passed with `@` and turned back by the client. */
function shellArg(path: string): string {
  return `'${path.replace(/^\0/, '@').replace(/'/g, `'\\''`)}'`;
}
