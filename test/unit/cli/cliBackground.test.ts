import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ESRCH') return false;
    throw err;
  }
  return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

describe('keel run with a background command', () => {
  it('stops the background command when the run ends, and exits', async () => {
    rig.server.load({
      turns: [
        reply.tool('bash', { command: 'echo $$ > job.pid; echo serving; sleep 100', run_in_background: true }),
        { ...reply.text('Started the server.'), match: { lastToolResultIncludes: 'Started background job bash_1' } },
      ],
    });
    const r = await runCli(
      rig.cli,
      // $$ is a host pid only outside the sandbox (inside, the job has a pid namespace of its own).
      ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'yolo', '--sandbox', 'off', 'start it'],
      { KEEL_HOME: rig.box.home },
    );
    expect(r.code).toBe(0);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: true, text: 'Started the server.' });
    const pid = Number(readFileSync(join(rig.box.ws, 'job.pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
  });

  it('reports what a background command changed after its tool_result, before the result line', async () => {
    rig.server.load({
      turns: [
        // Writes only after the call has returned (1 s), then waits to be stopped with the run.
        reply.tool('bash', { command: 'sleep 2; printf "built\\n" > out.txt; echo done; sleep 100', run_in_background: true }),
        { ...reply.tool('bash', { command: 'while [ ! -f out.txt ]; do sleep 0.1; done; cat out.txt' }), match: { lastToolResultIncludes: 'Started background job bash_1' } },
        { ...reply.text('Built.'), match: { lastToolResultIncludes: 'built' } },
      ],
    });
    const r = await runCli(
      rig.cli,
      ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'yolo', '--sandbox', 'off', 'build it'],
      { KEEL_HOME: rig.box.home },
    );
    expect(r.code).toBe(0);
    const types = r.lines.map((l) => l.type);
    const background = r.lines.findIndex((l) => l.type === 'tool_result');
    const changes = r.lines.findIndex((l) => l.type === 'command_changes');
    expect(r.lines[background]).not.toHaveProperty('changes');
    expect(changes).toBeGreaterThan(background);
    expect(changes).toBeLessThan(types.lastIndexOf('result'));
    expect(r.lines[changes]).toMatchObject({ id: r.lines[background]!.id, changes: [{ path: 'out.txt', kind: 'added' }] });
  });

  it('stops a sandboxed background command and everything in its sandbox when the run ends', async () => {
    const marker = `100.${process.pid}${Date.now() % 100000}`;
    rig.server.load({
      turns: [
        reply.tool('bash', { command: `echo serving; sleep ${marker} & sleep ${marker}`, run_in_background: true }),
        { ...reply.text('Started the server.'), match: { lastToolResultIncludes: 'serving' } },
      ],
    });
    const r = await runCli(
      rig.cli,
      ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'yolo', 'start it'],
      { KEEL_HOME: rig.box.home },
    );
    expect(r.code).toBe(0);
    expect(r.lines.find((l) => l.type === 'tool_result')).toMatchObject({ sandboxed: true });
    expect(processesWith(`sleep\0${marker}`)).toEqual([]);
  });
});

/** Host pids whose command line contains `needle` (processes in a sandbox's pid namespace included). */
function processesWith(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch (err) {
      if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ESRCH')) continue;
      throw err;
    }
    if (cmdline.includes(needle) && alive(Number(name))) out.push(Number(name));
  }
  return out;
}
