// The `keel` command as the README documents it: `npx keel …` in a clone, and the same bin
// after `npm link`, started by whatever `node` the machine has, runs the CLI on the project's
// Node 22. The package is laid out as a clone is (package.json bin, bin/keel.mjs, the built
// dist/cli.js, node_modules/node), in a temp folder.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from './cliHarness';

const root = resolve(__dirname, '../../..');
let pkg: string;

beforeAll(async () => {
  pkg = mkdtempSync(join(tmpdir(), 'keel-bin-'));
  mkdirSync(join(pkg, 'bin'));
  mkdirSync(join(pkg, 'dist'));
  mkdirSync(join(pkg, 'node_modules'));
  copyFileSync(join(root, 'bin', 'keel.mjs'), join(pkg, 'bin', 'keel.mjs'));
  copyFileSync(await buildCli(), join(pkg, 'dist', 'cli.js'));
  symlinkSync(join(root, 'node_modules', 'node'), join(pkg, 'node_modules', 'node'));
  const manifest = (await import(join(root, 'package.json'), { with: { type: 'json' } })) as { default: { bin: Record<string, string> } };
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'keel', version: '0.0.0', bin: manifest.default.bin }));
});

afterAll(() => rmSync(pkg, { recursive: true, force: true }));

/** PATH without any node_modules/.bin, as a shell outside the project has it. */
function machinePath(): string {
  return (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules')).join(delimiter);
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: { PATH: machinePath(), HOME: process.env.HOME }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

describe('the keel command', () => {
  it('the package bin is bin/keel.mjs, which runs the built CLI', () => {
    expect(existsSync(join(pkg, 'bin', 'keel.mjs'))).toBe(true);
  });

  it('`npx keel --version` works in the clone with the machine’s own node and npm', async () => {
    const result = await run('npx', ['--no-install', 'keel', '--version'], pkg);
    expect(result.stderr).not.toMatch(/SyntaxError|ERR_|requires Node/);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('test');
  });

  it('the linked command runs under an older node too: the CLI gets the project’s Node 22', async () => {
    // What `npm link` puts on the PATH is this file; the machine's node starts it.
    const result = await run('node', [join(pkg, 'bin', 'keel.mjs'), 'run', '--help'], pkg);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('keel run [options] PROMPT');
  });

  it('says how to fix a missing build instead of a stack trace', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'keel-bin-bare-'));
    try {
      mkdirSync(join(bare, 'bin'));
      copyFileSync(join(root, 'bin', 'keel.mjs'), join(bare, 'bin', 'keel.mjs'));
      const result = await run('node', [join(bare, 'bin', 'keel.mjs'), '--version'], bare);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/not built yet: run "npm run build"/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
