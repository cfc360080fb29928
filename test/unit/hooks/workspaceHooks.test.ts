// A hook the workspace ships runs only once the person approved that exact hook: asked once,
// remembered in KEEL_HOME, asked again when its command changes; a "no" keeps it from running.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Hooks } from '../../../src/core/hooks/hooks';
import type { Hook } from '../../../src/core/hooks/hookFiles';
import { hookMatches } from '../../../src/core/hooks/hookFiles';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';

let dir: string;
let ws: string;
let home: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-hooks-'));
  ws = join(dir, 'ws');
  home = join(dir, 'home');
  mkdirSync(join(ws, '.claude'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function workspaceHook(command: string): void {
  writeFileSync(join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] } }));
}

function hooks(answers: boolean[], asked: Hook[]): Hooks {
  return new Hooks({
    keelHome: home,
    folders: [ws],
    cwd: ws,
    sandbox: new CommandSandbox({ mode: 'off', folders: [ws], home: dir, keelHome: home }),
    env: () => ({ PATH: process.env.PATH }),
    approve: (hook) => {
      asked.push(hook);
      return Promise.resolve(answers.shift() ?? false);
    },
    log: () => undefined,
  });
}

const submit = (h: Hooks) => h.run('UserPromptSubmit', { prompt: 'hi' }, new AbortController().signal);

describe('workspace hooks', () => {
  it('run after the person approves them once, and are asked again when the command changes', async () => {
    workspaceHook('echo first');
    const asked: Hook[] = [];
    expect((await submit(hooks([true], asked))).context).toEqual(['[UserPromptSubmit hook, .claude/settings.json]\nfirst']);
    // Another window (a new Context) remembers the approval.
    expect((await submit(hooks([], asked))).context).toHaveLength(1);
    expect(asked.map((h) => h.command)).toEqual(['echo first']);

    workspaceHook('echo changed');
    expect((await submit(hooks([false], asked))).context).toEqual([]);
    expect(asked.map((h) => h.command)).toEqual(['echo first', 'echo changed']);
  });

  it('declined, a hook does not run and is not asked again in that window', async () => {
    workspaceHook('echo nope');
    const asked: Hook[] = [];
    const h = hooks([false, true], asked);
    expect((await submit(h)).context).toEqual([]);
    expect((await submit(h)).context).toEqual([]);
    expect(asked).toHaveLength(1);
  });
});

describe('matchers', () => {
  it("match Claude Code's tool names and Keel's, whole names only", () => {
    expect(hookMatches({ matcher: 'Edit|Write' }, 'write')).toBe(true);
    expect(hookMatches({ matcher: 'Bash' }, 'bash')).toBe(true);
    expect(hookMatches({ matcher: 'Bash' }, 'bash_output')).toBe(false);
    expect(hookMatches({ matcher: '' }, 'read')).toBe(true);
    expect(hookMatches({ matcher: 'mcp__github__.*' }, 'mcp__github__create_issue')).toBe(true);
  });
});
