// @vitest-environment jsdom
// A running command's output reaches the view live: the bash tool reports it as it comes, the
// host passes its tail on a few times a second, the store keeps it on the card until the
// result replaces it, and the card shows it.
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bashTool } from '../../../src/core/tools/bashTool';
import { MAX_LIVE_OUTPUT_CHARS } from '../../../src/protocol/limits';
import type { ToolCallPart, UiMessage } from '../../../src/protocol/uiMessage';
import { LiveToolOutput } from '../../../src/chat/conversations/liveToolOutput';
import { createToolEnv, textOf } from '../tools/toolTestKit';
import { mountApp, settle, snapshot } from '../webview/webviewHarness';
import { recordingConversation } from './recordingConversation';
import type { MountedApp } from '../webview/webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await app?.unmount();
  app = undefined;
});

describe('live output of a running command', () => {
  it('the bash tool reports output as it arrives, and the model still gets all of it', async () => {
    const env = await createToolEnv('keel-live-');
    try {
      const seen: string[] = [];
      const result = await env.run(bashTool, { command: 'echo one; sleep 0.2; echo two' }, { onOutput: (text) => seen.push(text) });
      expect(seen.join('')).toBe('one\ntwo\n');
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(textOf(result)).toBe('one\ntwo\n\nExit code: 0');
    } finally {
      await env.cleanup();
    }
  });

  it('passes the first output on at once, then at most once per window, and keeps only the tail', () => {
    vi.useFakeTimers();
    const shown: string[] = [];
    const live = new LiveToolOutput((_id, output) => shown.push(output), 100);
    live.append('c1', 'a\n');
    expect(shown).toEqual(['a\n']);
    live.append('c1', 'b\n');
    live.append('c1', 'c\n');
    expect(shown).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(shown).toEqual(['a\n', 'a\nb\nc\n']);
    live.append('c1', 'x'.repeat(MAX_LIVE_OUTPUT_CHARS));
    vi.advanceTimersByTime(100);
    expect(shown.at(-1)).toBe('x'.repeat(MAX_LIVE_OUTPUT_CHARS));
    live.append('c1', 'late');
    live.end('c1');
    vi.advanceTimersByTime(1_000);
    expect(shown.at(-1)).not.toContain('late');
  });

  it('the host puts it on the running card and drops it when the result comes', () => {
    const { state, sent } = recordingConversation();
    const never = () => false;
    state.beginRun('m');
    state.apply({ type: 'turn_start', turn: 1 }, never);
    state.apply({ type: 'tool_use', toolCallId: 'c1', name: 'bash', input: { command: 'npm test' } }, never);
    state.apply({ type: 'tool_output', toolCallId: 'c1', text: 'PASS a.test.ts\n' }, never);
    expect(sent.at(-1)).toEqual({ event: 'toolOutput', data: { toolCallId: 'c1', output: 'PASS a.test.ts\n' } });
    const card = () => state.snapshot([]).messages.flatMap((m) => m.parts).find((p): p is ToolCallPart => p.type === 'toolCall');
    expect(card()?.liveOutput).toBe('PASS a.test.ts\n');
    state.apply({ type: 'tool_result', toolCallId: 'c1', name: 'bash', isError: false, output: 'PASS a.test.ts\n\nExit code: 0' }, never);
    expect(card()?.liveOutput).toBeUndefined();
    expect(card()?.result?.output).toBe('PASS a.test.ts\n\nExit code: 0');
  });

  it('the card shows the latest lines while the command runs, and the result once it ends', async () => {
    app = await mountApp();
    const running: UiMessage = {
      id: 'a1',
      role: 'assistant',
      status: 'streaming',
      createdAt: 1,
      parts: [{ type: 'toolCall', toolCallId: 'c1', name: 'bash', input: { command: 'npm test' }, display: { title: 'bash', summary: 'npm test', icon: 'terminal', details: { kind: 'command', command: 'npm test' } }, state: 'running' }],
    };
    await act(async () => {
      app!.host.emit('snapshot', snapshot({ messages: [running] }));
    });
    await settle();
    expect(app.queryByTestId('tool-live-output')).toBeNull();
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    await act(async () => {
      app!.host.emit('toolOutput', { toolCallId: 'c1', output: `${lines}\n` });
    });
    await settle();
    expect(app.byTestId('tool-live-output').textContent).toBe(Array.from({ length: 12 }, (_, i) => `line ${i + 9}`).join('\n'));
    await act(async () => {
      app!.host.emit('toolResult', { toolCallId: 'c1', name: 'bash', state: 'done', isError: false, output: 'all of it', truncated: false });
    });
    await settle();
    expect(app.queryByTestId('tool-live-output')).toBeNull();
  });
});
