import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, renameSync, symlinkSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteApprovedChanges } from '../../../src/core/sandbox/approvedChanges';
import { sweepPlaceholders } from '../../../src/core/sandbox/placeholders';
import { forgetSandboxLayouts } from '../../../src/core/sandbox/sandboxLayout';
import { hostIdentity, sandboxUsers } from './hostIdentity';
import { gitEnv, requireRealSandbox, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

/** What is in `dir` whose name starts with `name` and was moved aside by Keel. */
function movedAside(dir: string, name: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith(`${name}.keel-moved-`));
}

// With the real bubblewrap: protected paths that nothing could hold beforehand (new folders,
// links) are put back after the run and reported. Only the host is checked, and the report.
for (const user of sandboxUsers()) {
  describe(`a protected path that appears or is replaced during a run is undone (${user.name})`, () => {
    let f: SandboxFixture;
    beforeAll(async () => {
      await requireRealSandbox();
      f = await sandboxFixture();
      await mkdir(join(f.ws, 'pkg'), { recursive: true });
      await writeFile(join(f.ws, 'pkg', 'index.js'), 'export {};\n');
      await mkdir(join(f.ws, 'conf', 'vscode'), { recursive: true });
      await writeFile(join(f.ws, 'conf', 'vscode', 'settings.json'), '{"shared":true}\n');
      await mkdir(join(f.ws, 'lib'), { recursive: true });
      symlinkSync('../conf/vscode', join(f.ws, 'lib', '.vscode'));
      user.prepare(f);
      forgetSandboxLayouts();
    });
    afterAll(async () => {
      await sweepPlaceholders();
      await f?.dispose();
    });

    it('a new pkg/.vscode, a rules file in a new folder and a new .code-workspace are moved aside and reported', async () => {
      const ran = await user.run(f, 'mkdir -p pkg/.vscode && echo evil > pkg/.vscode/settings.json; mkdir -p newdir && echo evil > newdir/AGENTS.md; echo "{}" > evil.code-workspace; echo done');
      expect(ran.output).toContain('done');
      expect(hostIdentity(join(f.ws, 'pkg', '.vscode'))).toBe('absent');
      expect(hostIdentity(join(f.ws, 'newdir', 'AGENTS.md'))).toBe('absent');
      expect(hostIdentity(join(f.ws, 'evil.code-workspace'))).toBe('absent');
      // Nothing is lost: what the command made is beside it, under a name that is not protected.
      expect(movedAside(join(f.ws, 'pkg'), '.vscode')).toHaveLength(1);
      expect(movedAside(join(f.ws, 'newdir'), 'AGENTS.md')).toHaveLength(1);
      const report = (ran.report ?? []).join('\n');
      expect(report).toContain(join(f.ws, 'pkg', '.vscode'));
      expect(report).toContain(join(f.ws, 'evil.code-workspace'));
    });

    it('a folder made by one command is checked in the next, even on a layout computed before it', async () => {
      const first = await user.run(f, 'mkdir fresh && echo done');
      expect(first.output).toContain('done');
      // No forgetSandboxLayouts(): the second run reuses the layout from before `fresh` existed.
      const ran = await user.run(f, 'mkdir -p fresh/.vscode && echo evil > fresh/.vscode/tasks.json; echo done');
      expect(ran.output).toContain('done');
      expect(hostIdentity(join(f.ws, 'fresh', '.vscode'))).toBe('absent');
    });

    it('a protected path that is a link is restored when the command replaces it', async () => {
      const link = join(f.ws, 'lib', '.vscode');
      const target = hostIdentity(join(f.ws, 'conf', 'vscode'));
      const ran = await user.run(f, 'rm lib/.vscode; mkdir lib/.vscode; echo evil > lib/.vscode/settings.json; echo done');
      expect(ran.output).toContain('done');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link)).toBe('../conf/vscode');
      expect(hostIdentity(join(f.ws, 'conf', 'vscode'))).toBe(target);
      expect((ran.report ?? []).join('\n')).toContain(link);
    });

    it('leaves alone what was there before the run, and what the person approved during it', async () => {
      await user.run(f, 'true');
      // Made on the host after the (cached) layout was computed, before the next run: the person's.
      await mkdir(join(f.ws, 'mine', '.vscode'), { recursive: true });
      await writeFile(join(f.ws, 'mine', '.vscode', 'launch.json'), '{}\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const approvedPath = join(f.ws, 'pkg', 'sub', 'AGENTS.md');
      const start = await f.sandbox.start({ cwd: f.ws, network: false });
      const argv = [...user.as, ...start.prefix, 'sleep', '0.5'];
      const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, ...gitEnv }, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await mkdir(join(f.ws, 'pkg', 'sub'), { recursive: true });
      await writeFile(approvedPath, '# approved\n');
      noteApprovedChanges([approvedPath]);
      // The person's own git checkout replaces a held file by another (a new inode) outside the sandbox.
      await writeFile(join(f.ws, 'AGENTS.md.new'), '# from another branch\n');
      renameSync(join(f.ws, 'AGENTS.md.new'), join(f.ws, 'AGENTS.md'));
      expect(await exited).toBe(0);
      await start.release();
      expect(readFileSync(join(f.ws, 'mine', '.vscode', 'launch.json'), 'utf8')).toBe('{}\n');
      expect(readFileSync(approvedPath, 'utf8')).toBe('# approved\n');
      expect(readFileSync(join(f.ws, 'AGENTS.md'), 'utf8')).toBe('# from another branch\n');
      expect(start.report).toEqual([]);
      expect(existsSync(join(f.ws, 'pkg', 'sub'))).toBe(true);
    });
  });
}

describe('the bash tool', () => {
  it('tells the model (in the result) and the person (in the log) what the sandbox undid', async () => {
    await requireRealSandbox();
    const { bashTool } = await import('../../../src/core/tools/bashTool');
    const { CommandSandbox } = await import('../../../src/core/sandbox/commandSandbox');
    const { createToolEnv } = await import('../tools/toolTestKit');
    const env = await createToolEnv('keel-sandbox-undo-');
    const f = await sandboxFixture();
    try {
      await env.file('pkg/index.js', 'export {};\n');
      const sandbox = new CommandSandbox({ mode: 'on', folders: [env.root], home: f.home, keelHome: f.keelHome });
      const result = await env.run(bashTool, { command: 'mkdir -p pkg/.vscode && echo evil > pkg/.vscode/settings.json; echo done' }, { sandbox });
      expect(result.sandboxed).toBe(true);
      expect(existsSync(join(env.root, 'pkg', '.vscode'))).toBe(false);
      expect(String(result.output)).toMatch(/created the protected path .*pkg\/\.vscode.*moved it to/);
      expect(env.logs.join('\n')).toMatch(/warn: bash: The command created the protected path/);
    } finally {
      await sweepPlaceholders();
      await env.cleanup();
      await f.dispose();
    }
  });
});
