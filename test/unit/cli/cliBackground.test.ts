import { readFileSync } from 'node:fs';
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
      ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'yolo', 'start it'],
      { KEEL_HOME: rig.box.home },
    );
    expect(r.code).toBe(0);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: true, text: 'Started the server.' });
    const pid = Number(readFileSync(join(rig.box.ws, 'job.pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
  });
});
