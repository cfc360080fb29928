/// <reference types="mocha" />
// Commands in Keel's terminal: the bash tool runs them in VS Code's terminal through shell
// integration and the model gets their output and exit code; without shell integration they
// run as a child process and the model is told so; timeout and cancel stop them for real;
// background jobs; @terminal; and recovery from a context-too-long error.
import * as assert from 'node:assert';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { KeelTerminals } from '../../../src/vscode/terminal/keelTerminals';
import { runInKeelTerminal } from '../../../src/vscode/terminal/terminalCommandRun';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun, setApprovalMode, setSandbox, workspaceFolder, workspaceSessionsDir } from './support/keelSetup';
import { contentText, lastToolResult, request, userTexts } from './support/modelRequests';
import { until } from './support/waiting';

keelHomeForRun();

/** Alive and not a zombie (a killed process nobody reaped yet is dead for our purposes). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ESRCH') return false;
    throw err;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return false;
    throw err;
  }
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

function readPid(path: string): number {
  const pid = Number(readFileSync(path, 'utf8').trim());
  assert.ok(Number.isInteger(pid) && pid > 0, `${path} holds a pid`);
  return pid;
}

describe('commands in the terminal', function () {
  this.timeout(180_000);
  const chat = useConfiguredChat();
  let folder: string;
  const pidFiles: string[] = [];

  before(async () => {
    folder = workspaceFolder();
    // These tests follow the commands' host pids ($$, $!): inside the sandbox those are pids of
    // its own namespace. sandbox.test.ts covers the terminal path in the sandbox.
    await setSandbox('off');
    await setApprovalMode('yolo');
    await chat.page.waitFor(() => chat.page.run?.approvalMode === 'yolo', 'approval mode yolo in the chat');
  });
  after(async () => {
    for (const file of pidFiles) rmSync(file, { force: true });
    await setApprovalMode(undefined);
    await setSandbox(undefined);
  });

  function pidFile(name: string): string {
    const path = join(folder, name);
    rmSync(path, { force: true });
    pidFiles.push(path);
    return path;
  }

  function explain(err: unknown): never {
    const calls = chat.page.toolCalls().map((c) => `${c.name}:${c.state}:${c.result?.output ?? ''}`);
    throw new Error(`${String(err)}; tool calls ${calls.join(' | ')}; errors ${JSON.stringify(chat.page.errors)}`);
  }

  it("runs a command in Keel's terminal and tells the model its output and exit code", async () => {
    chat.server.load({
      turns: [
        reply.tool('bash', { command: 'echo "terminal-$((6 * 7))"; echo to-stderr >&2; exit 3' }),
        reply.text('seen it', { match: { lastToolResultIncludes: 'terminal-42' } }),
      ],
    });
    await chat.page.sendAndSettle('run it', 60_000).catch(explain);
    const told = lastToolResult(request(chat.server, 1));
    assert.match(told, /^Ran in the terminal "Keel( \d+)?"\.\n\n/, told);
    assert.match(told, /terminal-42\nto-stderr\n\nExit code: 3$/, told);
    assert.doesNotMatch(told, /\x1b|\r/, 'no terminal escape sequences or carriage returns reach the model');
    assert.ok(vscode.window.terminals.some((t) => /^Keel( \d+)?$/.test(t.name)), 'a Keel terminal is open');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'seen it');
    const live = chat.page.named('toolOutput') as { output: string }[];
    assert.ok(live.some((l) => l.output.includes('terminal-42')), `the view got the output live: ${JSON.stringify(live)}`);
  });

  it("@terminal gives the model the last command of Keel's terminal, and the session log records it", async () => {
    chat.server.load({
      turns: [reply.tool('bash', { command: 'echo mention-me; exit 5' }), reply.text('ran'), reply.text('got it'), reply.text('got yours')],
    });
    await chat.page.sendAndSettle('run', 60_000).catch(explain);
    const from = chat.page.events.length;
    await chat.page.bus.request('session.send', { text: 'what happened? @terminal', mentions: [{ kind: 'terminal' }] });
    await chat.page.runEnded(from, 60_000).catch(explain);

    const sent = userTexts(request(chat.server, 2)).at(-1) ?? '';
    assert.match(sent, /<mention kind="terminal">\n\$ echo mention-me; exit 5 in \S+ \(exit code 5\)\n```\nmention-me\n```/, sent);

    const sessionId = (chat.page.named('session').at(-1) as { id: string | null }).id;
    assert.ok(sessionId, 'the conversation has a session');
    const records = readFileSync(join(workspaceSessionsDir(), `${sessionId}.jsonl`), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; message?: { role: string; content: unknown }; meta?: { mentions?: unknown } });
    const asked = records.find((r) => r.type === 'message' && r.message?.role === 'user' && JSON.stringify(r.message.content).includes('what happened?'));
    assert.ok(asked, 'the message is in the log');
    assert.deepStrictEqual(asked.meta?.mentions, [{ kind: 'terminal' }]);
    assert.match(contentText({ role: 'user', content: asked.message!.content } as Parameters<typeof contentText>[0]), /\$ echo mention-me; exit 5/);

    // A command the person runs in Keel's terminal is the last command too.
    const name = /^Ran in the terminal "([^"]+)"/.exec(lastToolResult(request(chat.server, 1)))?.[1];
    const terminal = vscode.window.terminals.find((t) => t.name === name);
    assert.ok(terminal?.shellIntegration, `the terminal "${name}" is there with shell integration`);
    const ended = new Promise<void>((resolve) => {
      const sub = vscode.window.onDidEndTerminalShellExecution((event) => {
        if (event.terminal !== terminal) return;
        sub.dispose();
        resolve();
      });
    });
    // Another extension's (or the person's) command is only read from its start event on, which
    // VS Code may deliver after a very fast command already printed: this one waits a moment first.
    terminal.shellIntegration.executeCommand('sleep 1; echo typed-by-person; false');
    await ended;
    const next = chat.page.events.length;
    await chat.page.bus.request('session.send', { text: 'and now? @terminal', mentions: [{ kind: 'terminal' }] });
    await chat.page.runEnded(next, 60_000).catch(explain);
    const yours = userTexts(request(chat.server, 3)).at(-1) ?? '';
    assert.match(yours, /<mention kind="terminal">\n\$ sleep 1; echo typed-by-person; false(?: in \S+)? \(exit code 1\)\n```\ntyped-by-person\n```/, yours);
  });

  it("names the person's own command in Keel's terminal that ran during one of Keel's, whose snapshots hold both", async () => {
    const keelMade = pidFile('keel-made.txt');
    const personMade = pidFile('person-made.txt');
    chat.server.load({
      turns: [reply.tool('bash', { command: 'echo first' }), reply.text('ok'), reply.tool('bash', { command: 'sleep 1; echo keel > keel-made.txt' }), reply.text('done')],
    });
    await chat.page.sendAndSettle('run', 60_000).catch(explain);
    const name = /^Ran in the terminal "([^"]+)"/.exec(lastToolResult(request(chat.server, 1)))?.[1];
    const terminal = vscode.window.terminals.find((t) => t.name === name);
    assert.ok(terminal?.shellIntegration, `the terminal "${name}" is there with shell integration`);
    const execution = (filter: typeof vscode.window.onDidStartTerminalShellExecution) =>
      new Promise<void>((resolve) => {
        const sub = filter((event) => {
          if (event.terminal !== terminal) return;
          sub.dispose();
          resolve();
        });
      });
    const started = execution(vscode.window.onDidStartTerminalShellExecution);
    const ended = execution(vscode.window.onDidEndTerminalShellExecution);
    // The person's command is still running when Keel's (in another Keel terminal) ends.
    terminal.shellIntegration.executeCommand('sleep 8; echo yours > person-made.txt');
    await started;
    await chat.page.sendAndSettle('again', 60_000).catch(explain);
    assert.ok(existsSync(keelMade), 'the command of Keel ran');
    assert.ok(
      chat.page.errors.some((e) => /you also ran `sleep 8; echo yours > person-made.txt` in Keel's terminal/.test(JSON.stringify(e))),
      `the card names the person's command: ${JSON.stringify(chat.page.errors)}`,
    );
    await ended;
    assert.ok(existsSync(personMade));
  });

  it('runs the command as a child process when shell integration is off, and says so', async () => {
    const setting = vscode.workspace.getConfiguration('terminal.integrated');
    await setting.update('shellIntegration.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      await until(() => vscode.workspace.getConfiguration('terminal.integrated').get('shellIntegration.enabled') === false, 'the setting to apply');
      chat.server.load({
        turns: [reply.tool('bash', { command: 'echo fallback-ran; exit 2' }), reply.text('ok', { match: { lastToolResultIncludes: 'fallback-ran' } })],
      });
      await chat.page.sendAndSettle('run it', 60_000).catch(explain);
      const told = lastToolResult(request(chat.server, 1));
      assert.strictEqual(
        told,
        'Not run in the terminal (shell integration is turned off (terminal.integrated.shellIntegration.enabled)); ran as a child process instead.\n\nfallback-ran\n\nExit code: 2',
      );
      assert.match(chat.page.toolCalls().at(-1)?.result?.output ?? '', /^Not run in the terminal/, 'the card says so too');
    } finally {
      await setting.update('shellIntegration.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('stops a command that outlives its timeout, process group included, even when it ignores Ctrl+C', async () => {
    const pids = pidFile('terminal-timeout.pid');
    chat.server.load({
      turns: [
        reply.tool('bash', { command: `trap '' INT; sleep 300 & echo $! > ${pids}; echo waiting; wait`, timeout: 3_000 }),
        reply.text('it timed out', { match: { lastToolResultIncludes: 'Timed out' } }),
      ],
    });
    await chat.page.sendAndSettle('run it', 90_000).catch(explain);
    const told = lastToolResult(request(chat.server, 1));
    assert.match(told, /^Ran in the terminal "Keel( \d+)?"\./, told);
    assert.match(told, /waiting/, told);
    assert.match(told, /Timed out after 3000 ms\. Ctrl\+C was sent to the terminal "Keel( \d+)?"; its process group \d+ was killed\.$/, told);
    const sleeper = readPid(pids);
    await until(() => !alive(sleeper), `the command's sleep (pid ${sleeper}) to be gone`, 20_000);
  });

  it('cancel stops a command running in the terminal, and its processes are gone', async () => {
    const pids = pidFile('terminal-cancel.pid');
    chat.server.load({ turns: [reply.tool('bash', { command: `sleep 300 & echo $! > ${pids}; echo started; wait` }), reply.text('never')] });
    const from = chat.page.events.length;
    await chat.page.send('run it');
    await until(() => existsSync(pids) && readFileSync(pids, 'utf8').trim() !== '', 'the command to start', 60_000).catch(explain);
    const sleeper = readPid(pids);
    assert.ok(alive(sleeper), 'the command runs');
    await until(
      () => (chat.page.named('toolOutput') as { output: string }[]).some((l) => l.output.includes('started')),
      'the view to show the output of the running command',
      20_000,
    );
    const card = chat.page.toolCalls().at(-1);
    assert.strictEqual(card?.state, 'running');
    assert.deepStrictEqual(await chat.page.bus.request('session.cancel', {}), { cancelled: true });
    await chat.page.runEnded(from, 60_000).catch(explain);
    await until(() => !alive(sleeper), `the command's sleep (pid ${sleeper}) to be gone`, 20_000);
    const ended = chat.page.toolCalls().at(-1);
    assert.strictEqual(ended?.state, 'cancelled');
    assert.match(ended?.result?.output ?? '', /Cancelled\. Ctrl\+C was sent to the terminal "Keel( \d+)?"/, ended?.result?.output);
    assert.strictEqual(chat.server.requests.length, 1, 'the model was not asked again');
  });

  it('runs a background command and kill_bash stops it', async () => {
    const pids = pidFile('terminal-background.pid');
    chat.server.load({
      turns: [
        reply.tool('bash', { command: `echo $$ > ${pids}; echo bg-ready; exec sleep 300`, run_in_background: true }),
        reply.tool('kill_bash', { id: 'bash_1' }, { match: { lastToolResultIncludes: 'bg-ready' } }),
        reply.text('stopped it'),
      ],
    });
    await chat.page.sendAndSettle('start a server, then stop it', 60_000).catch(explain);
    const started = lastToolResult(request(chat.server, 1));
    assert.match(started, /^Started background job bash_1\.\n\nbg-ready/, started);
    const killed = lastToolResult(request(chat.server, 2));
    assert.match(killed, /bash_1/, killed);
    const sleeper = readPid(pids);
    await until(() => !alive(sleeper), `the background command (pid ${sleeper}) to be gone`, 20_000);
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'stopped it');
  });

  it('recovers from a context-too-long error by sending less history, and the run succeeds', async () => {
    chat.server.load({ turns: [reply.text('first answer'), reply.contextLengthExceeded(), reply.text('recovered')] });
    await chat.page.sendAndSettle('the first question', 60_000).catch(explain);
    await chat.page.sendAndSettle('the second question', 60_000).catch(explain);
    assert.strictEqual(chat.server.requests.length, 3, 'the refused request was retried once');
    const refused = JSON.stringify(request(chat.server, 1).body.messages);
    const retried = JSON.stringify(request(chat.server, 2).body.messages);
    assert.ok(refused.includes('the first question'), 'the refused request carried the whole history');
    assert.ok(!retried.includes('the first question'), 'the retry left the oldest turn out');
    assert.ok(retried.includes('the second question'), 'the retry kept the question');
    // Less history, not necessarily fewer messages: the oldest turn may be one big message (it carries the workspace context).
    assert.ok(retried.length < refused.length, 'the retry sent less');
    assert.match(retried, /Keel left out the \d+ oldest messages?/, 'the model is told what was left out');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), 'recovered');
    assert.ok(chat.page.named('contextTrimmed').length > 0, 'the view was told history was trimmed');
  });
});

describe("Keel's terminal without shell integration", function () {
  this.timeout(120_000);

  it('says shell integration did not activate in time, and does not wait for that terminal again', async () => {
    const logs: string[] = [];
    const terminals = new KeelTerminals((level, message) => logs.push(`${level}: ${message}`));
    try {
      // sh (dash here) is a shell VS Code does not integrate with.
      const command = { shell: '/bin/sh', command: 'echo never', cwd: workspaceFolder(), timeoutMs: 10_000, signal: new AbortController().signal, maxOutputChars: 1_000, env: { names: ['PATH'], set: {} } };
      const first = await runInKeelTerminal(command, { terminals, log: (level, message) => logs.push(`${level}: ${message}`), waitMs: 3_000 });
      assert.deepStrictEqual(first, { ran: false, reason: 'shell integration did not activate in the terminal "Keel" within 3 s' });
      const again = terminals.lease('/bin/sh', workspaceFolder());
      assert.ok(again, 'the same terminal is idle again');
      assert.strictEqual(again.name, 'Keel', 'and reused, not a new one');
      assert.strictEqual(again.integrationMissed, true, 'the next command will not wait for it again');
      again.release();
      assert.strictEqual(await terminals.lastCommand(), undefined, 'nothing ran in the terminal');
    } finally {
      terminals.dispose();
    }
  });
});
