// @vitest-environment jsdom
// An MCP tool's progress reaches its card: the host turns the core's tool_progress into a
// toolPatch of that card, the page draws the latest one while the call runs, and the result
// takes it away.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { mountApp, settle, snapshot } from '../webview/webviewHarness';
import { recordingConversation } from './recordingConversation';
import type { MountedApp } from '../webview/webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

describe('progress of a running MCP tool', () => {
  it('the host sends it as a toolPatch of the card', () => {
    const { state, sent } = recordingConversation();
    const never = () => false;
    state.beginRun('m');
    state.apply({ type: 'turn_start', turn: 1 }, never);
    state.apply({ type: 'tool_use', toolCallId: 'c1', name: 'mcp__srv__slow', input: {} }, never);
    state.apply({ type: 'tool_progress', toolCallId: 'c1', progress: { percent: 40, message: 'indexing' } }, never);
    expect(sent.at(-1)).toEqual({ event: 'toolPatch', data: { toolCallId: 'c1', progress: { percent: 40, message: 'indexing' } } });
  });

  it('the card shows the latest percent and message while it runs, and not after the result', async () => {
    app = await mountApp();
    const running: UiMessage = {
      id: 'a1',
      role: 'assistant',
      status: 'streaming',
      createdAt: 1,
      parts: [{ type: 'toolCall', toolCallId: 'c1', name: 'mcp__srv__slow', input: {}, display: { title: 'srv: slow', summary: '', icon: 'zap', details: { kind: 'keyValue', entries: [] } }, state: 'running' }],
    };
    await act(async () => {
      app!.host.emit('snapshot', snapshot({ messages: [running] }));
    });
    await settle();
    expect(app.queryByTestId('tool-progress')).toBeNull();
    await act(async () => {
      app!.host.emit('toolPatch', { toolCallId: 'c1', progress: { percent: 40, message: 'indexing' } });
      app!.host.emit('toolPatch', { toolCallId: 'c1', progress: { percent: 75, message: 'writing' } });
    });
    await settle();
    expect(app.byTestId('tool-progress').textContent).toBe('75%writing');
    await act(async () => {
      app!.host.emit('toolResult', { toolCallId: 'c1', name: 'mcp__srv__slow', state: 'done', isError: false, output: 'ok', truncated: false });
    });
    await settle();
    expect(app.queryByTestId('tool-progress')).toBeNull();
  });
});
