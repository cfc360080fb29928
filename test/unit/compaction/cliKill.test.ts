import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { buildCli, runCli, sandbox } from '../cli/cliHarness';

let cli: string;
let server: ScriptedServer;
let box: ReturnType<typeof sandbox>;

beforeAll(async () => {
  cli = await buildCli();
  server = await startScriptedServer();
  box = sandbox();
}, 60_000);
afterAll(async () => {
  await server.close();
  rmSync(box.dir, { recursive: true, force: true });
});

const modelArgs = () => ['--cwd', box.ws, '--model', 'scripted-model', '--base-url', server.baseURL];

function sessionLogs(): string[] {
  const out: string[] = [];
  const projects = join(box.home, 'projects');
  for (const key of readdirSync(projects)) {
    const dir = join(projects, key, 'sessions');
    for (const name of readdirSync(dir)) if (name.endsWith('.jsonl')) out.push(join(dir, name));
  }
  return out;
}

describe('keel run killed mid-stream', () => {
  it('keeps the conversation; the next resume works and tells the model and the person what was cut', async () => {
    // The reply streams slowly: the CLI is killed while it is still arriving.
    server.load({
      turns: [
        { ...reply.text(`The first words of a long answer ${'and more '.repeat(400)}`), chunkSize: 4, tokensPerSecond: 40 },
        { ...reply.text('Picking up again.'), match: { lastUserIncludes: 'are you still there' } },
      ],
    });
    const child = spawn(process.execPath, [cli, 'run', ...modelArgs(), '--output', 'text', 'write me a long answer'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, KEEL_HOME: box.home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let streamed = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        streamed += d.toString();
        if (streamed.includes('long answer')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`keel run exited (${code}) before streaming`)));
    });
    child.kill('SIGKILL');
    await once(child, 'exit');

    const [log] = sessionLogs();
    expect(log).toBeDefined();
    const id = JSON.parse(readFileSync(log!, 'utf8').split('\n')[0]!).id as string;
    expect(readFileSync(log!, 'utf8')).toContain('write me a long answer');

    const resumed = await runCli(cli, ['run', ...modelArgs(), '--output', 'text', '--session', id, 'are you still there?'], { KEEL_HOME: box.home });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Picking up again.');
    expect(resumed.stderr).toMatch(/keel: \[Keel stopped before the previous request finished.*the reply to the message above was cut off/);

    // The model got the earlier prompt, the note and the new prompt, in one valid conversation.
    const sent = server.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const text = JSON.stringify(sent);
    expect(text).toContain('write me a long answer');
    expect(text).toMatch(/Keel stopped before the previous request finished.*are you still there/);
    const last = sent.at(-1)!;
    expect(last.role).toBe('user');

    // The log reads back whole: no warnings on the next opening either.
    const again = await runCli(cli, ['sessions', '--cwd', box.ws, '--json'], { KEEL_HOME: box.home });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(id);
    const records = readFileSync(log!, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; status?: string });
    expect(records.filter((r) => r.type === 'run').map((r) => r.status ?? 'start')).toEqual(['start', 'interrupted', 'start', 'completed']);
  });
});
