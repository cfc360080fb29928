import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../../src/core/tools/bashTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv('keel-bash-');
});
afterEach(async () => {
  await env.cleanup();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ESRCH') return false;
    throw err;
  }
  // A killed process nobody has reaped yet is a zombie: dead for our purposes.
  return !/^\d+ \(.*\) Z/.test(readProcStat(pid));
}

function readProcStat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return `${pid} (gone) Z`;
    throw err;
  }
}

/** Waits (without asserting how long) until the process is gone; fails after a generous deadline. */
async function waitUntilDead(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

describe('bash', () => {
  it('runs in the workspace root with stdout and stderr together and the exit code', async () => {
    const result = await env.run(bashTool, { command: 'echo out; echo err >&2; pwd; exit 3' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(`out\nerr\n${env.root}\n\nExit code: 3`);
  });

  it('keeps the order in which output arrived', async () => {
    const result = await env.run(bashTool, { command: 'echo 1; sleep 0.05; echo 2 >&2; sleep 0.05; echo 3' });
    expect(textOf(result)).toBe('1\n2\n3\n\nExit code: 0');
  });

  it('sets KEEL, disables pagers and closes stdin', async () => {
    const result = await env.run(bashTool, { command: 'echo "$KEEL $GIT_PAGER $PAGER"; cat; echo "stdin done"' });
    expect(textOf(result)).toBe('1 cat cat\nstdin done\n\nExit code: 0');
  });

  it('runs in a cwd inside the workspace and refuses one outside', async () => {
    await env.file('sub/marker.txt', '');
    expect(textOf(await env.run(bashTool, { command: 'ls', cwd: 'sub' }))).toBe('marker.txt\n\nExit code: 0');
    const outside = await env.run(bashTool, { command: 'ls', cwd: '..' });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/outside the workspace/);
  });

  it('says when there is no output', async () => {
    expect(textOf(await env.run(bashTool, { command: 'true' }))).toBe('(no output)\n\nExit code: 0');
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const result = await env.run(bashTool, { command: 'sleep 100 & echo $! > bg.pid; echo started; sleep 100', timeout: 500 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('started');
    expect(textOf(result)).toContain('Timed out after 500 ms');
    const pid = Number((await readFile(join(env.root, 'bg.pid'), 'utf8')).trim());
    expect(await waitUntilDead(pid)).toBe(true);
  });

  it('kills the process group when cancelled', async () => {
    const controller = new AbortController();
    const running = env.run(bashTool, { command: '(sleep 100; echo never) & echo $! > bg.pid; echo go; wait' }, { signal: controller.signal });
    // Cancel once the command is demonstrably running.
    for (let i = 0; i < 200; i++) {
      const pidFile = await readFile(join(env.root, 'bg.pid'), 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return '';
        throw err;
      });
      if (pidFile.trim() !== '') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    controller.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Cancelled');
    const pid = Number((await readFile(join(env.root, 'bg.pid'), 'utf8')).trim());
    expect(await waitUntilDead(pid)).toBe(true);
  });

  it('does not start a command when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await env.run(bashTool, { command: 'touch ran' }, { signal: controller.signal });
    expect(result.isError).toBe(true);
    await expect(readFile(join(env.root, 'ran'))).rejects.toThrow();
  });

  it('also stops a command that ignores SIGTERM', async () => {
    const result = await env.run(bashTool, { command: "trap '' TERM; echo $$ > sh.pid; sleep 100 & wait; sleep 100", timeout: 300 });
    expect(result.isError).toBe(true);
    const pid = Number((await readFile(join(env.root, 'sh.pid'), 'utf8')).trim());
    expect(await waitUntilDead(pid)).toBe(true);
  });

  it('cuts long output in the middle, saying how much was left out', async () => {
    const result = await env.run(bashTool, { command: 'for i in $(seq 1 20000); do echo "line $i"; done' });
    const text = textOf(result);
    expect(text.startsWith('line 1\nline 2\n')).toBe(true);
    expect(text).toContain('line 20000\n\nExit code: 0');
    const note = /… \[(\d+) characters \((\d+) lines\) elided from the middle of the output\] …/.exec(text);
    expect(note).not.toBeNull();
    const total = Array.from({ length: 20000 }, (_, i) => `line ${i + 1}\n`).join('').length;
    expect(Number(note![1])).toBe(total - 30_000);
    expect(text.length).toBeLessThan(31_000);
  });

  it('returns while a background job still holds the output open', async () => {
    const result = await env.run(bashTool, { command: 'sleep 30 & echo $! > bg.pid; echo launched' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('launched');
    expect(textOf(result)).toContain('Exit code: 0');
    const pid = Number((await readFile(join(env.root, 'bg.pid'), 'utf8')).trim());
    process.kill(pid, 'SIGKILL');
  });

  it('rejects timeouts above the maximum', () => {
    expect(bashTool.inputSchema.safeParse({ command: 'x', timeout: 600_001 }).success).toBe(false);
    expect(bashTool.inputSchema.safeParse({ command: 'x', timeout: 600_000 }).success).toBe(true);
  });
});
