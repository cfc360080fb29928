import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepPlaceholders } from '../../../src/core/sandbox/placeholders';
import { requireRealSandbox, runSandboxed, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

// The real bubblewrap: no double of it. A machine without a usable bwrap fails here.
describe('the OS sandbox (bubblewrap)', () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    await requireRealSandbox();
    f = await sandboxFixture();
  });
  afterAll(async () => f?.dispose());

  const writers: Record<string, (target: string) => string> = {
    tee: (t) => `echo pwned | tee '${t}'`,
    cp: (t) => `cp README.md '${t}'`,
    python3: (t) => `python3 -c "open('${t}','w').write('pwned')"`,
    node: (t) => `node -e "require('fs').writeFileSync('${t}','pwned')"`,
  };
  const targets = (): Record<string, string> => ({
    'an existing .vscode file': join(f.ws, '.vscode', 'settings.json'),
    'a new .vscode file': join(f.ws, '.vscode', 'launch.json'),
    'a missing git hook': join(f.ws, '.git', 'hooks', 'pre-push'),
    'the git config': join(f.ws, '.git', 'config'),
    'AGENTS.md': join(f.ws, 'AGENTS.md'),
    'a missing CLAUDE.md': join(f.ws, 'CLAUDE.md'),
    'a missing .keel config': join(f.ws, '.keel', 'config.json'),
    'a file outside the workspace': join(f.outside, 'x.txt'),
    'the home folder': join(f.home, '.bashrc'),
  });

  for (const [tool, command] of Object.entries(writers)) {
    it(`${tool} cannot write protected paths or outside the workspace`, async () => {
      for (const [what, target] of Object.entries(targets())) {
        const before = existsSync(target) ? readFileSync(target, 'utf8') : null;
        const ran = await runSandboxed(f, command(target));
        expect(ran.code, `${tool} → ${what}: ${ran.output}`).not.toBe(0);
        const after = existsSync(target) ? readFileSync(target, 'utf8') : null;
        expect(after, `${tool} → ${what}`).toBe(before);
      }
    });
  }

  it('has no capabilities: it cannot unmount or remount the read-only binds (even when Keel runs as root)', async () => {
    const vscodeDir = join(f.ws, '.vscode');
    const ran = await runSandboxed(
      f,
      `grep CapEff /proc/self/status; umount '${vscodeDir}' || mount -o remount,rw,bind '${vscodeDir}' || true; echo pwned > '${vscodeDir}/settings.json'`,
    );
    expect(ran.output).toMatch(/CapEff:\s*0+\n/);
    expect(readFileSync(join(vscodeDir, 'settings.json'), 'utf8')).toBe('{}\n');
  });

  it('leaves no placeholder behind for protected paths that did not exist', async () => {
    await runSandboxed(f, 'true');
    await sweepPlaceholders();
    expect(existsSync(join(f.ws, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(join(f.ws, '.keel'))).toBe(false);
    expect(existsSync(join(f.ws, '.github'))).toBe(false);
  });

  it('cannot create a missing .vscode folder', async () => {
    const bare = await sandboxFixture();
    try {
      await import('node:fs/promises').then((fs) => fs.rm(join(bare.ws, '.vscode'), { recursive: true }));
      const ran = await runSandboxed(bare, 'mkdir -p .vscode && echo x > .vscode/tasks.json');
      expect(ran.code).not.toBe(0);
      await sweepPlaceholders();
      expect(existsSync(join(bare.ws, '.vscode'))).toBe(false);
    } finally {
      await bare.dispose();
    }
  });

  it('writes ordinary workspace files', async () => {
    const ran = await runSandboxed(f, "echo ok | tee notes.txt && python3 -c \"open('py.txt','w').write('ok')\" && mkdir -p src/a && cp notes.txt src/a/");
    expect(ran.code, ran.output).toBe(0);
    expect(readFileSync(join(f.ws, 'py.txt'), 'utf8')).toBe('ok');
    expect(readFileSync(join(f.ws, 'src', 'a', 'notes.txt'), 'utf8')).toBe('ok\n');
  });

  it('hides the SSH key, KEEL_HOME and .env files outside the workspace', async () => {
    const ran = await runSandboxed(f, `cat ~/.ssh/id_rsa; cat '${join(f.keelHome, 'config.json')}'; cat '${join(f.root, '.env')}'; echo done`);
    expect(ran.output).toContain('done');
    expect(ran.output).not.toContain('fixture-secret');
    expect(ran.output).not.toContain('keel-home');
    expect(ran.output).not.toContain('outside-env-secret');
  });

  it('has a private /tmp', async () => {
    const marker = join('/tmp', `keel-sandbox-marker-${process.pid}`);
    await runSandboxed(f, `echo x > ${marker}`);
    expect(existsSync(marker)).toBe(false);
  });

  it('cannot connect to a server listening on 127.0.0.1 without network, and can with it', async () => {
    const server = createServer((socket) => socket.end('hello from host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const probe = `node -e "const s=require('net').connect(${port},'127.0.0.1');s.on('data',d=>{process.stdout.write(d);process.exit(0)});s.on('error',e=>{console.log(e.code);process.exit(3)})"`;
      const denied = await runSandboxed(f, probe);
      expect(denied.code).toBe(3);
      expect(denied.output).not.toContain('hello from host');
      const allowed = await runSandboxed(f, probe, { network: true });
      expect(allowed.output).toContain('hello from host');
    } finally {
      server.close();
    }
  });

  it('runs git status, git add and git commit', async () => {
    await writeFile(join(f.ws, 'change.txt'), 'a change\n');
    const ran = await runSandboxed(f, 'git status --short && git add change.txt && git commit -q -m "a change" && git log --oneline | head -1');
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain('a change');
  });

  it('removes a .git/commondir the command created (it would point git at another config)', async () => {
    const ran = await runSandboxed(f, 'echo /tmp/elsewhere > .git/commondir');
    expect(ran.code).toBe(0);
    expect(ran.removed).toEqual([join(f.ws, '.git', 'commondir')]);
    expect(existsSync(join(f.ws, '.git', 'commondir'))).toBe(false);
  });

  it('says when a command created a git repository in a subfolder (nothing can hold that path)', async () => {
    const { bashTool } = await import('../../../src/core/tools/bashTool');
    const { createToolEnv } = await import('../tools/toolTestKit');
    const env = await createToolEnv('keel-sandbox-repo-');
    try {
      const { CommandSandbox } = await import('../../../src/core/sandbox/commandSandbox');
      const sandbox = new CommandSandbox({ mode: 'on', folders: [env.root], home: f.home, keelHome: f.keelHome });
      const result = await env.run(bashTool, { command: 'git init -q sub && echo made' }, { sandbox });
      expect(result.sandboxed).toBe(true);
      expect(String(result.output), String(result.output)).toMatch(/created the git repository sub\/\.git\..*should review them/s);
      const again = await env.run(bashTool, { command: 'echo quiet' }, { sandbox });
      expect(String(again.output)).not.toMatch(/git repositor/);
    } finally {
      await env.cleanup();
    }
  });

  it('runs npm test of a small project', async () => {
    const proj = join(f.ws, 'proj');
    await mkdir(proj, { recursive: true });
    await writeFile(join(proj, 'package.json'), JSON.stringify({ name: 'fixture', version: '1.0.0', scripts: { test: 'node test.js' } }));
    await writeFile(join(proj, 'test.js'), "require('fs').writeFileSync('result.txt', String(1 + 1)); console.log('tests passed');\n");
    const ran = await runSandboxed(f, 'npm test', { cwd: proj });
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain('tests passed');
    expect(readFileSync(join(proj, 'result.txt'), 'utf8')).toBe('2');
  });
});
