import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { SessionEntry } from '../../../src/core/session/session';
import { bundledRipgrep } from '../../../src/vscode/workspace/ripgrepPath';
import { presentByName } from '../../../src/core/tools/builtinTools';

const toolSummary = (name: string, input: unknown) => presentByName(name, input).summary;
import { todosFromEntries, toUiSummary } from '../../../src/chat/sessions/uiSessions';

describe('small conversions', () => {
  it('summarises tool calls by their key argument', () => {
    expect(toolSummary('bash', { command: 'npm test\n  --watch' })).toBe('npm test --watch');
    expect(toolSummary('todo_write', { todos: [{}, {}] })).toBe('2 items');
    expect(toolSummary('mystery', 'x')).toBe('mystery');
  });

  it('restores the todo list of the last successful todo_write', () => {
    const at = (i: number) => new Date(i).toISOString();
    const entries: SessionEntry[] = [
      { kind: 'message', id: 'a', parentId: null, ts: at(1), message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't1', toolName: 'todo_write', input: { todos: [{ id: '1', content: 'one', status: 'completed' }] } }] } },
      { kind: 'message', id: 'b', parentId: 'a', ts: at(2), message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't1', toolName: 'todo_write', output: { type: 'text', value: 'ok' } }] } },
      { kind: 'message', id: 'c', parentId: 'b', ts: at(3), message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 't2', toolName: 'todo_write', input: { todos: [{ id: '2', content: 'bad', status: 'weird' }] } }] } },
      { kind: 'message', id: 'd', parentId: 'c', ts: at(4), message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: 't2', toolName: 'todo_write', output: { type: 'error-text', value: 'Invalid' } }] } },
    ];
    expect(todosFromEntries(entries)).toEqual([{ id: '1', content: 'one', status: 'completed' }]);
    expect(todosFromEntries([])).toEqual([]);
  });

  it('lists sessions with epoch times', () => {
    expect(toUiSummary({ id: 's', title: 't', createdAt: '1970-01-01T00:00:01.000Z', updatedAt: 'garbage', messageCount: 2, usage: { inputTokens: 0, outputTokens: 0 } })).toEqual({
      id: 's',
      title: 't',
      createdAt: 1000,
      updatedAt: 0,
      messageCount: 2,
      tokens: 0,
    });
  });

  it("finds VS Code's ripgrep, unpacked first", () => {
    const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
    const unpacked = join('/app', 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe);
    const plain = join('/app', 'node_modules', '@vscode', 'ripgrep', 'bin', exe);
    expect(bundledRipgrep('/app', (p) => p === unpacked || p === plain)).toBe(unpacked);
    expect(bundledRipgrep('/app', (p) => p === plain)).toBe(plain);
    expect(bundledRipgrep('/app', () => false)).toBeUndefined();
  });
});
