import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/cliArgs';
import type { RunArgs } from '../../../src/cli/cliArgs';

const run = (...args: string[]) => parseCliArgs(['run', ...args], '/ws') as RunArgs;
const refusal = (...args: string[]) => {
  try {
    parseCliArgs(['run', ...args], '/ws');
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('parsed without complaint');
};

describe('keel run --worktree NAME', () => {
  it('takes the word after --worktree as the name when a prompt follows it', () => {
    expect(run('--worktree', 'feat1', 'write it')).toMatchObject({ worktree: 'feat1', prompt: 'write it' });
    expect(run('--plan', '--worktree', 'fix-login.2', 'Fix', 'the', 'login')).toMatchObject({ worktree: 'fix-login.2', prompt: 'Fix the login', plan: true });
    expect(run('write it', '--worktree', 'feat1')).toMatchObject({ worktree: 'feat1', prompt: 'write it' });
    expect(run('--worktree', 'feat1', '-')).toMatchObject({ worktree: 'feat1', prompt: '-' });
  });

  it('still reads --worktree=NAME, and a bare --worktree before an option or the end makes up a name', () => {
    expect(run('--worktree=feat1', 'write it')).toMatchObject({ worktree: 'feat1', prompt: 'write it' });
    expect(run('write it', '--worktree')).toMatchObject({ worktree: '', prompt: 'write it' });
    expect(run('--worktree', '--plan', 'write it')).toMatchObject({ worktree: '', prompt: 'write it', plan: true });
  });

  it('leaves a word that cannot be a name in the prompt', () => {
    expect(run('--worktree', 'Look around')).toMatchObject({ worktree: '', prompt: 'Look around' });
    expect(run('--worktree', '../escape', 'now')).toMatchObject({ worktree: '', prompt: '../escape now' });
  });

  it('refuses a name-like word with no prompt after it, and says how to write either meaning', () => {
    const message = refusal('--worktree', 'refactor');
    expect(message).toContain('Is "refactor" the worktree\'s name or the prompt?');
    expect(message).toContain('--worktree=refactor "PROMPT"');
    expect(message).toContain('--worktree -- "refactor"');
    expect(run('--worktree', '--', 'refactor')).toMatchObject({ worktree: '', prompt: 'refactor' });
  });

  it('never merges the name into the prompt', () => {
    const a = run('--worktree', 'feat1', 'write it');
    expect(a.prompt).not.toContain('feat1');
  });
});
