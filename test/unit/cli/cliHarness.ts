import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';

const root = resolve(__dirname, '../../..');

/** Bundles the real CLI entry once per test file, as `npm run build` does. */
export async function buildCli(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'keel-cli-build-'));
  const outfile = join(outDir, 'cli.js');
  await build({
    entryPoints: [join(root, 'src/cli/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    banner: { js: '#!/usr/bin/env node' },
    define: { KEEL_VERSION: '"test"' },
    logLevel: 'warning',
  });
  return outfile;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as stream-json lines (only when every line is JSON). */
  lines: Array<Record<string, unknown>>;
}

/** `as`: run it as that user (a test running as root trying an unprivileged one). */
export function runCli(cli: string, args: string[], env: Record<string, string | undefined>, stdin?: string, as?: { uid: number; gid: number }): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      ...as,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.stdin.end(stdin ?? '');
    child.on('close', (code) => {
      let lines: Array<Record<string, unknown>> = [];
      try {
        lines = stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      } catch {
        lines = [];
      }
      resolvePromise({ code, stdout, stderr, lines });
    });
  });
}

/** A temp KEEL_HOME and an empty workspace folder. */
export function sandbox(): { dir: string; home: string; ws: string } {
  const dir = mkdtempSync(join(tmpdir(), 'keel-cli-'));
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
  return { dir, home, ws };
}

export interface CliRig {
  /** The bundled CLI, built once for the file. */
  readonly cli: string;
  /** One scripted model server for the file. */
  readonly server: ScriptedServer;
  /** A fresh workspace and KEEL_HOME for each test, removed after it. */
  readonly box: ReturnType<typeof sandbox>;
}

/** Registers the hooks every CLI test file needs; `prepare` fills each test's fresh sandbox. */
export function useCliRig(prepare?: (box: ReturnType<typeof sandbox>) => void): CliRig {
  const rig = {} as { cli: string; server: ScriptedServer; box: ReturnType<typeof sandbox> };
  beforeAll(async () => {
    rig.cli = await buildCli();
    rig.server = await startScriptedServer();
  }, 60_000);
  afterAll(() => rig.server.close());
  beforeEach(() => {
    rig.box = sandbox();
    prepare?.(rig.box);
  });
  afterEach(() => rmSync(rig.box.dir, { recursive: true, force: true }));
  return rig;
}
