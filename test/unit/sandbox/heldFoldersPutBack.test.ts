import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepPlaceholders } from '../../../src/core/sandbox/placeholders';
import { forgetSandboxLayouts } from '../../../src/core/sandbox/sandboxLayout';
import { hostGitStatus, hostIdentity, sandboxUsers } from './hostIdentity';
import { requireRealSandbox, run, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

/** What is in `dir` whose name starts with `name` and was moved aside by Keel. */
function movedAside(dir: string, name: string): string[] {
  return readdirSync(dir).filter((n) => n.startsWith(`${name}.keel-moved-`));
}

// With the real bubblewrap: a short command gets no mount for the folders that hold protected
// paths; whatever it does to them, each protected path on the host is afterwards the same file as
// before, what the command made in their place is beside them, and the report says so.
for (const user of sandboxUsers()) {
  describe(`folders holding protected paths are put back after a short run (${user.name})`, () => {
    let f: SandboxFixture;
    const targets = (): string[] => [
      join(f.ws, '.git', 'config'),
      join(f.ws, '.git', 'hooks'),
      join(f.ws, 'pkg', 'sub', '.vscode'),
      join(f.ws, 'pkg', 'sub', 'AGENTS.md'),
      join(f.ws, '.github', 'instructions'),
    ];
    beforeAll(async () => {
      await requireRealSandbox();
      f = await sandboxFixture();
      await mkdir(join(f.ws, 'pkg', 'sub', '.vscode'), { recursive: true });
      await writeFile(join(f.ws, 'pkg', 'sub', '.vscode', 'settings.json'), '{"nested":true}\n');
      await writeFile(join(f.ws, 'pkg', 'sub', 'AGENTS.md'), '# nested rules\n');
      await mkdir(join(f.ws, '.github', 'instructions'), { recursive: true });
      await writeFile(join(f.ws, '.github', 'instructions', 'style.md'), 'be kind\n');
      user.prepare(f);
      forgetSandboxLayouts();
    });
    afterAll(async () => {
      await sweepPlaceholders();
      await f?.dispose();
    });

    it('.git moved and copied with a core.fsmonitor: the original is back, the copy beside it, and the report says so', async () => {
      const marker = join(f.root, 'fsmonitor-ran');
      const before = targets().map(hostIdentity);
      const ran = await user.run(f, `mv .git .git.orig && cp -a .git.orig .git && printf '[core]\\n\\tfsmonitor = "touch ${marker}"\\n' >> .git/config && echo done`);
      expect(ran.output).toContain('done');
      expect(targets().map(hostIdentity)).toEqual(before);
      expect(existsSync(join(f.ws, '.git.orig'))).toBe(false);
      expect(movedAside(f.ws, '.git')).toHaveLength(1);
      hostGitStatus(f.ws);
      expect(existsSync(marker), 'the host ran the fsmonitor the command wrote').toBe(false);
      const report = (ran.report ?? []).join('\n');
      expect(report).toContain(`The command moved ${join(f.ws, '.git')}`);
      expect(report).toContain('Keel moved it back');
    });

    it('a folder and the one inside it, both moved and nested the other way round, are each put back', async () => {
      const before = targets().map(hostIdentity);
      const ran = await user.run(f, 'mv pkg/sub x && mv pkg x/pkg && mkdir -p pkg/sub/.vscode && echo evil > pkg/sub/.vscode/settings.json && echo done');
      expect(ran.output).toContain('done');
      expect(targets().map(hostIdentity)).toEqual(before);
      expect(existsSync(join(f.ws, 'x'))).toBe(false);
      // What the command made at pkg is beside it; the .vscode inside it appeared during the run and is moved aside too.
      const aside = movedAside(f.ws, 'pkg');
      expect(aside).toHaveLength(1);
      expect(hostIdentity(join(f.ws, aside[0], 'sub', '.vscode'))).toBe('absent');
    });

    it('a link put where the folder was is moved aside, not followed', async () => {
      const before = targets().map(hostIdentity);
      const ran = await user.run(f, `mv .github gh && ln -s ${f.outside} .github && echo done`);
      expect(ran.output).toContain('done');
      expect(targets().map(hostIdentity)).toEqual(before);
      expect(lstatSync(join(f.ws, '.github')).isDirectory()).toBe(true);
      const aside = movedAside(f.ws, '.github');
      expect(aside).toHaveLength(1);
      expect(lstatSync(join(f.ws, aside[0])).isSymbolicLink()).toBe(true);
      expect(readdirSync(f.outside)).toEqual([]);
    });

    it('taking away write access to the folders does not stop the put-back', async () => {
      const before = targets().map(hostIdentity);
      const ran = await user.run(f, 'mkdir hide && mv pkg hide/pkg && mkdir pkg && chmod 500 hide/pkg hide pkg . && echo done');
      expect(ran.output).toContain('done');
      expect(targets().map(hostIdentity)).toEqual(before);
      expect(existsSync(join(f.ws, 'hide', 'pkg'))).toBe(false);
    });

    it('git add and git commit still work without the folder mounts', async () => {
      await writeFile(join(f.ws, 'change.txt'), 'a change\n');
      const ran = await user.run(f, 'git -c safe.directory=* add change.txt && git -c safe.directory=* commit -q -m "a change" && git -c safe.directory=* log --format=%s -1');
      expect(ran.code, ran.output).toBe(0);
      expect(ran.output).toContain('a change');
      expect(ran.report ?? []).toEqual([]);
    });
  });
}

describe('a long-lived run (background command, server) keeps the folders held by mounts', () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    await requireRealSandbox();
    f = await sandboxFixture();
    await mkdir(join(f.ws, 'pkg', '.vscode'), { recursive: true });
    forgetSandboxLayouts();
  });
  afterAll(async () => {
    await sweepPlaceholders();
    await f?.dispose();
  });

  it('renaming the folder fails inside the run, and nothing needs putting back', async () => {
    const start = await f.sandbox.start({ cwd: f.ws, network: false, longLived: true });
    const ran = await run([...start.prefix, '/bin/sh', '-c', 'mv pkg pkg.orig; mv .git .git.orig; echo done'], f.ws, { HOME: f.home });
    await start.release();
    expect(ran.output).toContain('done');
    expect(ran.output).toMatch(/busy/i);
    expect(existsSync(join(f.ws, 'pkg.orig'))).toBe(false);
    expect(existsSync(join(f.ws, '.git.orig'))).toBe(false);
    expect(start.report).toEqual([]);
  });
});
