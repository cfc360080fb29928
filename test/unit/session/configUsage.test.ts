import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalMode } from '../../../src/core/config/configSchema';
import { sandbox, TempDirs } from './sessionFixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

describe('session config', () => {
  it('keeps the latest value per key and accumulates the tool and command allow-lists, across a resume', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    expect(s.config()).toEqual({ allowedTools: new Set(), allowedCommands: new Set() });
    s.appendConfig('approvalMode', 'autoEdit');
    s.appendConfig('allowTool', 'readFile');
    s.appendConfig('allowTool', 'runCommand');
    s.appendConfig('title', 'First title');
    s.appendConfig('approvalMode', 'manual');
    s.appendConfig('allowTool', 'editFile');
    s.appendConfig('revokeTool', 'runCommand');
    s.appendConfig('title', 'Better title');
    s.appendConfig('model', 'openai/gpt-5');
    s.appendConfig('allowCommand', 'npm test');
    s.appendConfig('allowCommand', 'git status');
    const expected = {
      approvalMode: 'manual',
      title: 'Better title',
      model: 'openai/gpt-5',
      allowedTools: new Set(['readFile', 'editFile']),
      allowedCommands: new Set(['npm test', 'git status']),
    };
    expect(s.config()).toEqual(expected);
    s.close();

    const resumed = store.open(s.id);
    expect(resumed.config()).toEqual(expected);
    resumed.close();
  });

  it('is appended, never rewritten', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendConfig('title', 'a');
    const before = readFileSync(s.path, 'utf8');
    s.appendConfig('title', 'b');
    const after = readFileSync(s.path, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toMatch(/^\{"type":"config".*"value":"b"\}\n$/);
    s.close();
  });

  it('refuses an approval mode that does not exist', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    expect(() => s.appendConfig('approvalMode', 'godMode' as ApprovalMode)).toThrow(/invalid "config" record/);
    expect(s.config().approvalMode).toBeUndefined();
    s.close();
  });

  it('hands out a copy of the allow-list', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendConfig('allowTool', 'readFile');
    (s.config().allowedTools as Set<string>).add('runCommand');
    expect(s.config().allowedTools).toEqual(new Set(['readFile']));
    s.close();
  });
});

describe('usage', () => {
  it('sums every usage record, across a resume', () => {
    const { store } = sandbox(dirs);
    const s = store.create();
    s.appendUsage({ inputTokens: 1200, outputTokens: 300, model: 'a' });
    s.appendUsage({ inputTokens: 800, outputTokens: 50 });
    expect(s.usageTotals()).toEqual({ inputTokens: 2000, outputTokens: 350 });
    s.close();
    const resumed = store.open(s.id);
    resumed.appendUsage({ inputTokens: 1, outputTokens: 1 });
    expect(resumed.usageTotals()).toEqual({ inputTokens: 2001, outputTokens: 351 });
    resumed.close();
  });
});
