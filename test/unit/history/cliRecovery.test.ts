import { rmSync } from 'node:fs';
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
afterAll(() => {
  server.close();
  rmSync(box.dir, { recursive: true, force: true });
});

function keel(args: string[], output: 'stream-json' | 'text') {
  return runCli(cli, ['run', '--cwd', box.ws, '--model', 'scripted-model', '--base-url', server.baseURL, '--output', output, ...args], {
    KEEL_HOME: box.home,
  });
}

describe('keel run on a conversation too long for the model', () => {
  it('reports the trimming and answers; a resumed session still holds every message', async () => {
    server.load({ turns: [reply.text('First answer.'), reply.text('Second answer.')] });
    const first = await keel(['first question'], 'stream-json');
    const sessionId = String(first.lines.at(-1)?.sessionId);
    await keel(['--session', sessionId, 'second question'], 'stream-json');

    server.load({ turns: [reply.contextLengthExceeded(), reply.text('Third answer.')] });
    const third = await keel(['--session', sessionId, 'third question'], 'stream-json');
    expect(third.code).toBe(0);
    expect(third.lines.filter((l) => l.type === 'context_trimmed')).toEqual([{ type: 'context_trimmed', attempt: 1, droppedMessages: expect.any(Number), shortenedResults: 0 }]);
    expect(third.lines.at(-1)).toMatchObject({ type: 'result', success: true, text: 'Third answer.' });

    server.load({ turns: [{ ...reply.contextLengthExceeded(), repeat: 4 }] });
    const failed = await keel(['--session', sessionId, 'fourth question'], 'text');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('the conversation is too long for the model: trying again without');
    expect(failed.stderr).toMatch(/failed: The conversation is too long for the model's context window.*Nothing was lost/);

    server.load({ turns: [{ ...reply.text('Fifth answer.'), match: { lastUserIncludes: 'fifth' } }] });
    await keel(['--session', sessionId, 'fifth question'], 'stream-json');
    const sent = JSON.stringify(server.requests[0].body.messages);
    for (const q of ['first question', 'second question', 'third question', 'fourth question']) expect(sent).toContain(q);
  });
});
