import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepPlaceholders } from '../../../src/core/sandbox/placeholders';
import { forgetSandboxLayouts } from '../../../src/core/sandbox/sandboxLayout';
import { hostGitStatus, hostIdentity, sandboxUsers } from './hostIdentity';
import { requireRealSandbox, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

// Reproduction 1 of issue #20, with the real bubblewrap: a command renames the folder that holds
// a protected path and puts a copy of its own in its place. Only the host is checked afterwards.
for (const user of sandboxUsers()) {
  describe(`a protected path stays the same file when what holds it is moved (${user.name})`, () => {
    let f: SandboxFixture;
    beforeAll(async () => {
      await requireRealSandbox();
      f = await sandboxFixture();
      await mkdir(join(f.ws, '.github', 'instructions'), { recursive: true });
      await writeFile(join(f.ws, '.github', 'instructions', 'style.md'), 'be kind\n');
      await mkdir(join(f.ws, 'pkg', '.vscode'), { recursive: true });
      await writeFile(join(f.ws, 'pkg', '.vscode', 'settings.json'), '{"nested":true}\n');
      user.prepare(f);
      forgetSandboxLayouts();
    });
    afterAll(async () => {
      await sweepPlaceholders();
      await f?.dispose();
    });

    it('.git cannot be swapped for a copy with a core.fsmonitor of the command’s making', async () => {
      const marker = join(f.root, 'fsmonitor-ran');
      const before = { git: hostIdentity(join(f.ws, '.git')).split(' ')[0], config: hostIdentity(join(f.ws, '.git', 'config')), hooks: hostIdentity(join(f.ws, '.git', 'hooks')) };
      const ran = await user.run(f, `mv .git .git.orig; cp -a .git.orig .git; printf '[core]\\n\\tfsmonitor = "touch ${marker}"\\n' >> .git/config; echo done`);
      expect(ran.output).toContain('done');
      expect(hostIdentity(join(f.ws, '.git')).split(' ')[0]).toBe(before.git);
      expect(hostIdentity(join(f.ws, '.git', 'config'))).toBe(before.config);
      expect(hostIdentity(join(f.ws, '.git', 'hooks'))).toBe(before.hooks);
      hostGitStatus(f.ws);
      expect(existsSync(marker), 'the host ran the fsmonitor the command wrote').toBe(false);
    });

    it('.github cannot be swapped around .github/instructions', async () => {
      const instructions = join(f.ws, '.github', 'instructions');
      const copilot = join(f.ws, '.github', 'copilot-instructions.md');
      await sweepPlaceholders();
      const before = { instructions: hostIdentity(instructions), copilot: hostIdentity(copilot) };
      const ran = await user.run(f, 'mv .github .github.orig; cp -a .github.orig .github; echo evil > .github/instructions/style.md; echo evil > .github/copilot-instructions.md; echo done');
      expect(ran.output).toContain('done');
      await sweepPlaceholders();
      expect(hostIdentity(instructions)).toBe(before.instructions);
      expect(hostIdentity(copilot)).toBe(before.copilot);
    });

    it('.cursor cannot be swapped around the .cursor/rules placeholder Keel made', async () => {
      expect(hostIdentity(join(f.ws, '.cursor'))).toBe('absent');
      const ran = await user.run(f, 'mv .cursor .cursor.orig; mkdir -p .cursor/rules; echo evil > .cursor/rules/run.mdc; echo done');
      expect(ran.output).toContain('done');
      await sweepPlaceholders();
      expect(hostIdentity(join(f.ws, '.cursor'))).toBe('absent');
      expect(hostIdentity(join(f.ws, '.cursor.orig'))).toBe('absent');
    });

    it('pkg cannot be swapped around pkg/.vscode', async () => {
      const nested = join(f.ws, 'pkg', '.vscode');
      const before = hostIdentity(nested);
      const ran = await user.run(f, 'mv pkg pkg.orig; cp -a pkg.orig pkg; echo evil > pkg/.vscode/settings.json; echo done');
      expect(ran.output).toContain('done');
      expect(hostIdentity(nested)).toBe(before);
    });

    it('git add and git commit still work in the sandbox', async () => {
      await writeFile(join(f.ws, 'change.txt'), 'a change\n');
      const ran = await user.run(f, 'git -c safe.directory=* add change.txt && git -c safe.directory=* commit -q -m "a change" && git -c safe.directory=* log --format=%s -1');
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toContain('a change');
    });
  });
}
