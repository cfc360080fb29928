import { rmSync, writeFileSync } from 'node:fs';
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
  // The user's global rules: $KEEL_HOME/rules.json.
  writeFileSync(
    join(box.home, 'rules.json'),
    JSON.stringify({
      rules: [
        { id: 'done-bell', on: 'task_complete', if: 'event.status == "completed"', actions: [{ type: 'notify', text: 'Task finished in {{workspace.name}}.' }] },
        { id: 'broken', on: 'task_complete', if: 'event.status ==', actions: [{ type: 'notify', text: 'x' }] },
      ],
    }),
  );
});
afterEach(() => rmSync(box.dir, { recursive: true, force: true }));

function keel(output: 'text' | 'stream-json') {
  server.load({ turns: [reply.text('All done.')] });
  return runCli(cli, ['run', '--cwd', box.ws, '--model', 'scripted-model', '--base-url', server.baseURL, '--output', output, 'hello'], {
    KEEL_HOME: box.home,
  });
}

describe('keel run with event rules', () => {
  it('text output: a notify is a stderr line, a broken rule a warning naming the file and rule; stdout stays the answer', async () => {
    const r = await keel('text');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('All done.\n');
    const name = box.ws.split('/').at(-1);
    expect(r.stderr).toContain(`! Task finished in ${name}. (rule done-bell)\n`);
    expect(r.stderr).toMatch(/keel: .*rules\.json: rule "broken": "if": Expected a value but found the end of the expression/);
  });

  it('stream-json: the fired rules and the notice are events', async () => {
    const r = await keel('stream-json');
    expect(r.code).toBe(0);
    const types = r.lines.map((l) => l.type);
    expect(types.indexOf('rules')).toBeLessThan(types.indexOf('result'));
    expect(r.lines.find((l) => l.type === 'rules')).toMatchObject({
      event: 'task_complete',
      fired: [{ id: 'done-bell', source: 'user', actions: [{ type: 'notify' }] }],
    });
    expect(r.lines.find((l) => l.type === 'notify')).toMatchObject({ rule: 'done-bell', text: expect.stringMatching(/^Task finished in /) });
    expect(r.lines.find((l) => l.type === 'warning')?.message).toMatch(/rule "broken"/);
  });
});
