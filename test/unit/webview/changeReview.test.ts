// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolApprovalRequest, ToolApprovalAnswer } from '../../../src/protocol/toolApproval';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { click, mountApp, settle, snapshot, userMessage } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

function changeRequest(id: string, path: string): ToolApprovalRequest {
  return {
    id,
    toolCallId: `call-${id}`,
    tool: 'edit',
    category: 'write',
    summary: `Edit ${path}`,
    input: { file_path: path },
    paths: [path],
    protected: false,
    change: { path: `/ws/${path}`, displayPath: path, kind: 'edit', added: 1, removed: 1, before: 'a\n', after: 'b\n' },
  };
}

function editedMessage(reverted = false): UiMessage {
  return {
    id: 'a1',
    role: 'assistant',
    status: 'done',
    createdAt: 2,
    parts: [
      {
        type: 'toolCall',
        toolCallId: 'call-1',
        name: 'edit',
        input: { file_path: 'src/a.ts' },
        display: { title: 'edit', summary: 'src/a.ts', icon: 'edit', details: { kind: 'fileChange', path: 'src/a.ts' } },
        state: 'done',
        result: { output: 'Edited src/a.ts.', isError: false, truncated: false },
        change: { id: 'change-1', displayPath: 'src/a.ts', kind: 'edit', undoable: true, reverted },
      },
    ],
  };
}

describe('file changes in the chat', () => {
  it('several pending changes get Accept all, which accepts each of them', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot());
    await settle();
    const answers = ['ap-1', 'ap-2', 'ap-3'].map((id, i) => app!.host.request('toolApproval', changeRequest(id, `src/f${i}.ts`)));
    await settle();
    expect(app.allByTestId('approval-card')).toHaveLength(3);
    expect(app.byTestId('approval-batch').textContent).toContain('3 file changes are waiting');
    await click(app.byTestId('accept-all'));
    const results: ToolApprovalAnswer[] = await Promise.all(answers);
    expect(results).toEqual([{ approved: true, scope: 'once' }, { approved: true, scope: 'once' }, { approved: true, scope: 'once' }]);
    await settle();
    expect(app.queryByTestId('approval-batch')).toBeNull();
  });

  it('one pending change has no batch buttons, and its card says Accept and offers the diff', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot());
    await settle();
    let asked: string | undefined;
    app.host.handle('diff.open', ({ approvalId }) => {
      asked = approvalId;
      return { opened: true };
    });
    const answer = app.host.request('toolApproval', changeRequest('ap-9', 'src/one.ts'));
    await settle();
    expect(app.queryByTestId('approval-batch')).toBeNull();
    expect(app.byTestId('approve').textContent).toBe('Accept');
    // The change row names the verb and the path; the tool's summary would repeat them.
    expect(app.byTestId('approval-card').textContent!.split('src/one.ts')).toHaveLength(2);
    await click(app.byTestId('open-diff'));
    await settle();
    expect(asked).toBe('ap-9');
    await click(app.byTestId('reject'));
    expect(await answer).toEqual({ approved: false });
  });

  it('Undo on an applied change asks the host, and over a later change only when the person insists', async () => {
    app = await mountApp();
    const calls: { changeId: string; force?: boolean }[] = [];
    app.host.handle('change.undo', (params) => {
      calls.push(params);
      return params.force
        ? { status: 'reverted', message: 'Put back src/a.ts as it was before Keel’s change.' }
        : { status: 'conflict', message: 'Nothing was put back: src/a.ts was changed since.' };
    });
    app.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'edit a'), editedMessage()] }));
    await settle();
    expect(app.byTestId('applied-change').textContent).toContain('Changed src/a.ts');
    await click(app.byTestId('undo-change'));
    await settle();
    expect(app.byTestId('undo-change-conflict').textContent).toContain('was changed since');
    await click(app.byTestId('undo-change-force'));
    await settle();
    expect(calls).toEqual([{ changeId: 'change-1' }, { changeId: 'change-1', force: true }]);
    expect(app.byTestId('undo-change-result').textContent).toContain('Put back src/a.ts');
    // The host then marks the card: the change shows as undone, without an Undo button.
    app.host.emit('message', { message: editedMessage(true) });
    await settle();
    expect(app.queryByTestId('undo-change')).toBeNull();
    expect(app.byTestId('change-undone').textContent).toBe('undone');
  });

  it('"Restore files to here" on a user message asks the host for that message', async () => {
    app = await mountApp();
    const asked: string[] = [];
    app.host.handle('changes.restore', ({ messageId }) => {
      asked.push(messageId);
      return { status: 'reverted', message: 'Put back src/a.ts as it was before Keel’s change.' };
    });
    app.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'edit a'), editedMessage()] }));
    await settle();
    await click(app.byTestId('restore-files'));
    await settle();
    expect(asked).toEqual(['u1']);
    expect(app.byTestId('restore-files-result').textContent).toContain('Put back');
  });
});
