import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackgroundJobs } from '../../../src/core/tools/backgroundJobs';
import { bashOutputTool } from '../../../src/core/tools/bashOutputTool';
import { bashTool } from '../../../src/core/tools/bashTool';
import { killBashTool } from '../../../src/core/tools/killBashTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let env: ToolEnv;
let jobs: BackgroundJobs;
const errors: Error[] = [];

beforeEach(async () => {
  env = await createToolEnv('keel-bg-');
  jobs = new BackgroundJobs({ maxRunning: 3, outputChars: 2_000, onError: (err) => errors.push(err) });
});
afterEach(async () => {
  await jobs.stopAll();
  await env.cleanup();
  expect(errors).toEqual([]);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ESRCH') return false;
    throw err;
  }
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

/** Retries (without asserting how long anything takes) until `done` holds; fails after a generous deadline. */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await probe();
  for (let i = 0; i < 200 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 50));
    value = await probe();
  }
  return value;
}

async function pidFrom(file: string): Promise<number> {
  const text = await until(
    () => readFile(join(env.root, file), 'utf8').catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? '' : Promise.reject(err))),
    (t) => t.trim() !== '',
  );
  return Number(text.trim());
}

const start = (command: string, extra: Record<string, unknown> = {}) => env.run(bashTool, { command, run_in_background: true, ...extra }, { jobs });
const output = async (id: string, filter?: string) => textOf(await env.run(bashOutputTool, filter === undefined ? { id } : { id, filter }, { jobs }));

describe('bash run_in_background', () => {
  it('returns at once with a job id and the first output, and the job keeps running', async () => {
    const result = await start('echo started; sleep 30');
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toContain('Started background job bash_1.');
    expect(text).toContain('started');
    expect(text).toContain('Job bash_1 is running.');
    expect(jobs.get('bash_1')?.isRunning).toBe(true);
  });

  it('bash_output returns only what is new since the last read, then how the job ended', async () => {
    await start('echo first; while [ ! -f go ]; do sleep 0.05; done; echo second; exit 3');
    expect(await output('bash_1')).toBe('(no new output)\n\nJob bash_1 is running.');
    await env.file('go', '');
    // "second" may arrive in a read that still finds the job running: collect every read.
    const reads: string[] = [];
    await until(
      async () => {
        const text = await output('bash_1');
        reads.push(text);
        return text;
      },
      (t) => !t.includes('is running'),
    );
    expect(reads.at(-1)).toMatch(/Job bash_1 finished with exit code 3\.$/);
    expect(reads.join('\n').match(/^second$/gm)).toHaveLength(1);
    expect(await output('bash_1')).toBe('(no new output)\n\nJob bash_1 finished with exit code 3.');
  });

  it('filters lines with a regular expression, consuming the rest', async () => {
    await start('while [ ! -f go ]; do sleep 0.05; done; printf "apple\\nbanana\\napricot\\n"');
    await env.file('go', '');
    let collected = '';
    await until(
      async () => {
        const text = await output('bash_1', '^ap');
        collected += text;
        return text;
      },
      (t) => t.includes('finished'),
    );
    expect(collected).toContain('apple\napricot');
    expect(collected).not.toContain('banana');
    expect(await output('bash_1')).toContain('(no new output)');
  });

  it('refuses an invalid filter and an unknown job', async () => {
    await start('sleep 30');
    const bad = await env.run(bashOutputTool, { id: 'bash_1', filter: '(' }, { jobs });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/Invalid filter/);
    const unknown = await env.run(bashOutputTool, { id: 'bash_9' }, { jobs });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('No background job "bash_9". Jobs: bash_1.');
  });

  it('keeps the head and the tail of long unread output, counting what it dropped', async () => {
    await start('while [ ! -f go ]; do sleep 0.05; done; for i in $(seq 1 5000); do echo "line $i"; done; echo end');
    await env.file('go', '');
    await until(async () => jobs.get('bash_1')?.isRunning, (running) => running === false);
    const text = await until(() => output('bash_1'), () => true);
    expect(text.startsWith('line 1\nline 2\n')).toBe(true);
    expect(text).toMatch(/… \[\d+ characters \(\d+ lines\) elided from the middle of the output\] …/);
    expect(text).toContain('line 5000\nend\n\nJob bash_1 finished with exit code 0.');
    expect(text.length).toBeLessThan(2_300);
  });

  it('kill_bash stops the job and everything it started', async () => {
    await start('sleep 100 & echo $! > child.pid; echo $$ > shell.pid; sleep 100');
    const child = await pidFrom('child.pid');
    const shell = await pidFrom('shell.pid');
    const result = await env.run(killBashTool, { id: 'bash_1' }, { jobs });
    expect(textOf(result)).toMatch(/^Stopped job bash_1\./);
    expect(textOf(result)).toMatch(/Job bash_1 was killed with kill_bash \(signal SIGTERM\)\./);
    expect(await until(async () => alive(child), (a) => !a)).toBe(false);
    expect(alive(shell)).toBe(false);
    expect(textOf(await env.run(killBashTool, { id: 'bash_1' }, { jobs }))).toMatch(/^Job bash_1 had already ended\./);
  });

  it('stops a job whose shell exited but left processes behind', async () => {
    await start('(sleep 100; echo never) & echo $! > child.pid; echo spawned');
    const child = await pidFrom('child.pid');
    const status = await until(() => output('bash_1'), (t) => !t.includes('is running'));
    expect(status).toMatch(/finished with exit code 0\. Processes it started are still running; kill_bash stops them\./);
    await env.run(killBashTool, { id: 'bash_1' }, { jobs });
    expect(await until(async () => alive(child), (a) => !a)).toBe(false);
  });

  it('stops a background job at its timeout when one is given', async () => {
    await start('echo $$ > shell.pid; sleep 100', { timeout: 300 });
    const shell = await pidFrom('shell.pid');
    const text = await until(() => output('bash_1'), (t) => !t.includes('is running'));
    expect(text).toMatch(/was stopped at its timeout/);
    expect(alive(shell)).toBe(false);
  });

  it('caps how many jobs run at once', async () => {
    await start('sleep 30');
    await start('sleep 30');
    await start('sleep 30');
    const fourth = await start('sleep 30');
    expect(fourth.isError).toBe(true);
    expect(textOf(fourth)).toMatch(/3 background commands are already running \(bash_1, bash_2, bash_3\).*kill_bash/);
    await env.run(killBashTool, { id: 'bash_2' }, { jobs });
    expect((await start('sleep 30')).isError).toBeFalsy();
  });

  it('says so when background commands are not available', async () => {
    const result = await env.run(bashTool, { command: 'sleep 1', run_in_background: true });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not available here/);
  });

  it('stopAll ends every job (what disposing of a conversation does)', async () => {
    await start('echo $$ > a.pid; sleep 100');
    await start('echo $$ > b.pid; sleep 100');
    const pids = [await pidFrom('a.pid'), await pidFrom('b.pid')];
    await jobs.stopAll();
    expect(pids.map(alive)).toEqual([false, false]);
    expect(await output('bash_1')).toMatch(/was stopped when the conversation ended/);
  });
});
