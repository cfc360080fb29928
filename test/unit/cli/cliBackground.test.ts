import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { buildCli, runCli, sandbox } from './cliHarness';

let cli: string;
let server: ScriptedServer;
let box: ReturnType<typeof sandbox>;

beforeAll(async () => {
  cli = await buildCli();
  server = await startScriptedServer();
}, 60_000);
afterAll(() => server.close());
beforeEach(() => {
  box = sandbox();
});
afterEach(() => rmSync(box.dir, { recursive: true, force: true }));

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
    server.load({
      turns: [
        reply.tool('bash', { command: 'echo $$ > job.pid; echo serving; sleep 100', run_in_background: true }),
        { ...reply.text('Started the server.'), match: { lastToolResultIncludes: 'Started background job bash_1' } },
      ],
    });
    const r = await runCli(
      cli,
      ['run', '--cwd', box.ws, '--model', 'scripted-model', '--base-url', server.baseURL, '--output', 'stream-json', '--approval', 'yolo', 'start it'],
      { KEEL_HOME: box.home },
    );
    expect(r.code).toBe(0);
    expect(r.lines.at(-1)).toMatchObject({ type: 'result', success: true, text: 'Started the server.' });
    const pid = Number(readFileSync(join(box.ws, 'job.pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
  });
});
