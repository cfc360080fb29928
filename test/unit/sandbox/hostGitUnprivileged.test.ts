import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { requireRealSandbox } from './sandboxFixture';

const nobody = 65534;

/**
 * The same invariant as hostGitVectors.test.ts, as an unprivileged user: Keel's core bundled
 * and run as `nobody` (through setpriv when the tests run as root), with the real bubblewrap
 * in an unprivileged user namespace.
 */
describe('the host never runs what the sandbox could write, as an unprivileged user', () => {
  const root = realpathSync(mkdtempSync('/var/tmp/keel-hostgit-nobody-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('runs no planted program on any path where Keel runs git, and each feature still works', async () => {
    await requireRealSandbox();
    const bundle = join(root, 'driver.mjs');
    await build({ entryPoints: [join(__dirname, 'unprivilegedGitDriver.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(root, nobody, nobody);
    const data = join(root, 'data');
    const argv = [...(asRoot ? ['setpriv', `--reuid=${nobody}`, `--regid=${nobody}`, '--clear-groups', '--'] : []), process.execPath, bundle, data];
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: join(data, 'home'), LANG: 'C.UTF-8' };
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { uid: number; steps: Record<string, { markers: string[]; result: unknown }> };
    expect(out.uid).not.toBe(0);
    // The host's files first: no marker after any step.
    expect(Object.entries(out.steps).map(([name, s]) => `${name}: ${s.markers.join(' ')}`)).toEqual(Object.keys(out.steps).map((name) => `${name}: `));
    expect(out.steps['sandboxed command']!.result).toBe(0);
    expect(out.steps['snapshot after']!.result).toEqual(['sub']);
    expect(out.steps['snapshot again']!.result).toEqual([]);
    expect(out.steps['nested snapshot']!.result).toBe(40);
    expect(out.steps.context!.result).toEqual(expect.arrayContaining([' M a.txt', '?? sub/']));
    expect(out.steps.mention!.result).toBe(true);
    expect(out.steps.worktree!.result).toEqual({ changes: ['a.txt'], removed: 'removed' });
  });
});
