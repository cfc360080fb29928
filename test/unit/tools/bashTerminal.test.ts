import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TerminalCommand, TerminalRun } from '../../../src/core/tools/process/terminalRun';
import { bashTool } from '../../../src/core/tools/bashTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

// The bash tool with a host that has a terminal (VS Code's is tested in the integration suite).
let env: ToolEnv;
beforeEach(async () => {
  env = await createToolEnv('keel-bash-terminal-');
});
afterEach(async () => {
  await env.cleanup();
});

function withTerminal(answer: (cmd: TerminalCommand) => TerminalRun, asked: TerminalCommand[] = []) {
  return {
    host: {
      ...env.host,
      runInTerminal: (cmd: TerminalCommand) => {
        asked.push(cmd);
        return Promise.resolve(answer(cmd));
      },
    },
  };
}

describe('bash with a host terminal', () => {
  it('hands the command to the terminal with the timeout and cap, and reports its output and exit code', async () => {
    const asked: TerminalCommand[] = [];
    const result = await env.run(
      bashTool,
      { command: 'npm test', timeout: 5_000 },
      withTerminal(() => ({ ran: true, terminalName: 'Keel', output: 'all good\n', exitCode: 0, timedOut: false, cancelled: false }), asked),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ command: 'npm test', cwd: env.root, timeoutMs: 5_000, maxOutputChars: 30_000 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Ran in the terminal "Keel".\n\nall good\n\nExit code: 0');
  });

  it('says when the terminal stopped a command on timeout, and how', async () => {
    const result = await env.run(
      bashTool,
      { command: 'sleep 100', timeout: 1_000 },
      withTerminal(() => ({
        ran: true,
        terminalName: 'Keel 2',
        output: '^C\n',
        exitCode: 130,
        timedOut: true,
        cancelled: false,
        stopNote: 'Ctrl+C was sent to the terminal "Keel 2"; its process group 42 was killed.',
      })),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Ran in the terminal "Keel 2".\n\n^C\n\nTimed out after 1000 ms. Ctrl+C was sent to the terminal "Keel 2"; its process group 42 was killed.');
  });

  it('runs the command as a child process when the terminal cannot, and says why', async () => {
    const result = await env.run(
      bashTool,
      { command: 'echo from-child; exit 4' },
      withTerminal(() => ({ ran: false, reason: 'shell integration did not activate in the terminal "Keel" within 10 s' })),
    );
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      'Not run in the terminal (shell integration did not activate in the terminal "Keel" within 10 s); ran as a child process instead.\n\nfrom-child\n\nExit code: 4',
    );
    expect(env.logs.some((l) => l.startsWith('warn: bash: Not run in the terminal'))).toBe(true);
  });

  it('does not fall back to a child process when the person cancelled while the terminal started', async () => {
    const controller = new AbortController();
    const result = await env.run(
      bashTool,
      { command: 'touch should-not-exist' },
      {
        ...withTerminal(() => {
          controller.abort();
          return { ran: false, reason: 'cancelled while the terminal started' };
        }),
        signal: controller.signal,
      },
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Cancelled before the command started.');
    await expect(import('node:fs/promises').then((fs) => fs.access(`${env.root}/should-not-exist`))).rejects.toThrow();
  });

  it('keeps background commands on the child process', async () => {
    const asked: TerminalCommand[] = [];
    const result = await env.run(bashTool, { command: 'echo bg', run_in_background: true }, withTerminal(() => ({ ran: false, reason: 'unused' }), asked));
    expect(asked).toHaveLength(0);
    expect(textOf(result)).toBe("Background commands are not available here; run the command without run_in_background.");
  });
});
