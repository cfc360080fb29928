import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig((box) => {
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

function keel(output: 'text' | 'stream-json') {
  rig.server.load({ turns: [reply.text('All done.')] });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', output, 'hello'], {
    KEEL_HOME: rig.box.home,
  });
}

describe('keel run with event rules', () => {
  it('text output: a notify is a stderr line, a broken rule a warning naming the file and rule; stdout stays the answer', async () => {
    const r = await keel('text');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('All done.\n');
    const name = rig.box.ws.split('/').at(-1);
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
