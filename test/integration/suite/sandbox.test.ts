/// <reference types="mocha" />
// The OS sandbox on the terminal path: a command Keel types into its terminal runs inside
// bubblewrap (the real one), cannot write a protected path, and the card says the sandbox
// refused it; ordinary workspace writes still work.
import * as assert from 'node:assert';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun, setApprovalMode, setSandbox, workspaceFolder } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';
import { until } from './support/waiting';

keelHomeForRun();

/** Host pids whose command line holds `needle` (a sandbox's own pid namespace shows other numbers inside). */
function processesWith(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    let stat: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch (err) {
      if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ESRCH')) continue;
      throw err;
    }
    const zombie = stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
    if (cmdline.includes(needle) && !zombie) out.push(Number(name));
  }
  return out;
}

describe('commands in the OS sandbox', function () {
  this.timeout(180_000);
  const chat = useConfiguredChat();
  let folder: string;
  const made: string[] = [];

  before(async () => {
    folder = workspaceFolder();
    await setSandbox('on');
    await setApprovalMode('yolo');
    await chat.page.waitFor(() => chat.page.run?.approvalMode === 'yolo', 'approval mode yolo in the chat');
  });
  after(async () => {
    for (const path of made) rmSync(path, { force: true });
    await setApprovalMode(undefined);
    await setSandbox(undefined);
  });

  function explain(err: unknown): never {
    const calls = chat.page.toolCalls().map((c) => `${c.name}:${c.state}:${c.result?.output ?? ''}`);
    throw new Error(`${String(err)}; tool calls ${calls.join(' | ')}; errors ${JSON.stringify(chat.page.errors)}`);
  }

  it("a command in Keel's terminal cannot write .vscode, and the card says the sandbox refused it", async () => {
    const probe = join(folder, '.vscode', 'keel-sandbox-probe');
    made.push(probe);
    chat.server.load({
      turns: [
        // Through a variable, so the static checks cannot see the path and only the sandbox stops it.
        reply.tool('bash', { command: 'mkdir -p .vscode && p=.vscode/keel-sandbox-probe && touch "$p"' }),
        reply.text('refused', { match: { lastToolResultIncludes: 'sandbox' } }),
      ],
    });
    await chat.page.sendAndSettle('try it', 60_000).catch(explain);
    const told = lastToolResult(request(chat.server, 1));
    assert.match(told, /^Ran in the terminal "Keel( \d+)?"\./, told);
    assert.match(told, /Read-only file system/, told);
    assert.match(told, /This command ran in Keel's OS sandbox, and it probably failed because of it/, told);
    const card = chat.page.toolCalls().at(-1)?.result?.output ?? '';
    assert.match(card, /ran in Keel's OS sandbox, and it probably failed because of it/, 'the card says the sandbox refused it');
    assert.ok(!existsSync(probe), '.vscode/keel-sandbox-probe was not created');
  });

  it('an ordinary file in the workspace is written from the terminal in the sandbox', async () => {
    const file = join(folder, 'sandbox-ok.txt');
    made.push(file);
    chat.server.load({
      turns: [reply.tool('bash', { command: 'echo fine > sandbox-ok.txt' }), reply.text('done', { match: { lastToolResultIncludes: 'Exit code: 0' } })],
    });
    await chat.page.sendAndSettle('write it', 60_000).catch(explain);
    assert.match(lastToolResult(request(chat.server, 1)), /^Ran in the terminal/);
    assert.ok(existsSync(file), 'sandbox-ok.txt exists');
  });

  it('cancel stops a sandboxed command in the terminal, with everything in its sandbox', async () => {
    const marker = `300.${Date.now() % 100000}`;
    chat.server.load({ turns: [reply.tool('bash', { command: `sleep ${marker} & echo started; wait` }), reply.text('never')] });
    const from = chat.page.events.length;
    await chat.page.send('run it');
    await until(() => processesWith(`sleep\0${marker}`).length > 0, 'the sandboxed sleep to run', 60_000).catch(explain);
    await until(
      () => (chat.page.named('toolOutput') as { output: string }[]).some((l) => l.output.includes('started')),
      'the view to show the output of the running command',
      20_000,
    );
    assert.deepStrictEqual(await chat.page.bus.request('session.cancel', {}), { cancelled: true });
    await chat.page.runEnded(from, 60_000).catch(explain);
    await until(() => processesWith(`sleep\0${marker}`).length === 0, 'the sandboxed sleep to be gone', 20_000);
    assert.strictEqual(chat.page.toolCalls().at(-1)?.state, 'cancelled');
  });
});
