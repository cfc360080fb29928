import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepPlaceholders } from '../../../src/core/sandbox/placeholders';
import { forgetSandboxLayouts } from '../../../src/core/sandbox/sandboxLayout';
import { hostIdentity, sandboxUsers } from './hostIdentity';
import { gitEnv, requireRealSandbox, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

/** Makes `count` empty files (and `folders` empty folders) named to sort before `.git`, in the sandbox, as an attacker's command would. */
function flood(count: number, folders = 0): string {
  return `python3 -c "
import os
for i in range(${count}): open('.a%06d' % i, 'w').close()
for i in range(${folders}): os.mkdir('.d%06d' % i)
"`;
}

const attack = 'echo evil >> .git/config; echo evil > .vscode/settings.json; echo evil > pkg/.vscode/settings.json; echo evil >> sub/.git/config; echo evil > deep/a/AGENTS.md; echo done';

// Reproduction 3 of issue #20, with the real bubblewrap: one command fills the workspace so the
// protected-path walk runs out of budget, the next one writes what the walk no longer found.
for (const user of sandboxUsers()) {
  describe(`protected paths the walk cannot reach stay protected (${user.name})`, () => {
    let f: SandboxFixture;
    let targets: string[];
    beforeAll(async () => {
      await requireRealSandbox();
      f = await sandboxFixture();
      await mkdir(join(f.ws, 'pkg', '.vscode'), { recursive: true });
      await writeFile(join(f.ws, 'pkg', '.vscode', 'settings.json'), '{"nested":true}\n');
      await mkdir(join(f.ws, 'deep', 'a'), { recursive: true });
      await writeFile(join(f.ws, 'deep', 'a', 'AGENTS.md'), '# nested rules\n');
      spawnSync('git', ['init', '-q', 'sub'], { cwd: f.ws, env: { ...process.env, ...gitEnv } });
      targets = ['.git/config', '.vscode/settings.json', 'pkg/.vscode/settings.json', 'sub/.git/config', 'deep/a/AGENTS.md'].map((p) => join(f.ws, p));
      user.prepare(f);
      forgetSandboxLayouts();
    });
    afterAll(async () => {
      await sweepPlaceholders();
      await f?.dispose();
    });

    it('after 50,000 new entries, .git/config and the .vscode files (root and nested) are still read-only', { timeout: 120_000 }, async () => {
      const before = targets.map(hostIdentity);
      const filled = await user.run(f, flood(50_000));
      expect(filled.code, filled.output).toBe(0);
      forgetSandboxLayouts();
      const ran = await user.run(f, attack);
      expect(ran.output).toContain('done');
      expect(targets.map(hostIdentity)).toEqual(before);
      // Not silent: the run says which folders it kept read-only and why.
      expect((ran.report ?? []).join('\n')).toMatch(/read-only/);
      const wrote = await user.run(f, 'echo ok > written.txt && cat written.txt');
      expect(wrote.output, 'the scanned part of the workspace stays writable').toContain('ok');
    });

    it('when too many folders were left unscanned, the command runs with the workspace read-only and says so', { timeout: 120_000 }, async () => {
      const before = targets.map(hostIdentity);
      const filled = await user.run(f, flood(0, 3_000));
      expect(filled.code, filled.output).toBe(0);
      forgetSandboxLayouts();
      const ran = await user.run(f, `${attack}; echo new > brand-new.txt`);
      expect(ran.output).toContain('done');
      expect(targets.map(hostIdentity)).toEqual(before);
      expect(hostIdentity(join(f.ws, 'brand-new.txt'))).toBe('absent');
      expect((ran.report ?? []).join('\n')).toMatch(/read-only/);
    });
  });
}
