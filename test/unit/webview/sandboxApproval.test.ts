// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolApprovalRequest } from '../../../src/protocol/toolApproval';
import { click, mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

function commandRequest(extra: Partial<ToolApprovalRequest>): ToolApprovalRequest {
  return {
    id: 'ap-1',
    toolCallId: 'call-1',
    tool: 'bash',
    category: 'command',
    summary: 'npm install',
    input: { command: 'npm install' },
    paths: ['.'],
    protected: false,
    allowPrefixes: ['npm install'],
    ...extra,
  };
}

describe('approval cards for sandboxed commands', () => {
  it('a command asking for the network says so, and approving answers approve', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot());
    await settle();
    const answer = app.host.request('toolApproval', commandRequest({ network: true }));
    await settle();
    expect(app.byTestId('approval-network').textContent).toMatch(/asks for network access/);
    expect(app.queryByTestId('approval-unsandboxed')).toBeNull();
    await click(app.byTestId('approve'));
    expect(await answer).toEqual({ approved: true, scope: 'once' });
  });

  it('a command asking to run outside the sandbox is marked and cannot be always-allowed', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot());
    await settle();
    const answer = app.host.request('toolApproval', commandRequest({ unsandboxed: true }));
    await settle();
    expect(app.byTestId('approval-unsandboxed').textContent).toMatch(/without Keel's OS sandbox/);
    expect(app.queryByTestId('always-allow')).toBeNull();
    await click(app.byTestId('reject'));
    expect(await answer).toEqual({ approved: false });
  });
});
