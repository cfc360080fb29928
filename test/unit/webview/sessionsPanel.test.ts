// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionSummary } from '../../../src/protocol/sessionState';
import { assistantMessage, click, mountApp, settle, snapshot, typeInto, userMessage } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

function rows(total: number): SessionSummary[] {
  return Array.from({ length: total }, (_, i) => ({
    id: `s-${i}`,
    title: `Chat ${i}`,
    createdAt: 1,
    updatedAt: 1_700_000_000_000 - i * 1000,
    messageCount: 2,
    tokens: 1500 + i,
  }));
}

/** Lets React's timers and updates run (inside act) until `check` holds. */
async function untilInAct(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  }
}

async function openSessions(all: SessionSummary[]) {
  app = await mountApp();
  const mounted = app;
  const list = vi.fn(({ offset = 0, limit = 50, query }: { offset?: number; limit?: number; query?: string }) => {
    const matching = query ? all.filter((s) => s.title.includes(query)) : all;
    return { sessions: matching.slice(offset, offset + limit), total: matching.length };
  });
  mounted.host.handle('sessions.list', list);
  mounted.host.emit('snapshot', snapshot());
  mounted.host.emit('view.show', { panel: 'sessions' });
  await settle();
  return { mounted, list };
}

async function setField(element: HTMLElement, value: string): Promise<void> {
  await act(async () => {
    (element as HTMLElement & { value: string }).value = value;
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('the sessions panel', () => {
  it('shows the first page with tokens, and pages in more when scrolled to the end', async () => {
    const { mounted, list } = await openSessions(rows(120));
    expect(mounted.allByTestId('session-item')).toHaveLength(50);
    expect(mounted.allByTestId('session-item')[0]!.textContent).toMatch(/Chat 0.*2 messages · 1,500 tokens/);
    await act(async () => {
      mounted.byTestId('sessions-rows').dispatchEvent(new Event('scroll'));
    });
    await settle();
    expect(list).toHaveBeenLastCalledWith({ limit: 50, offset: 50 }, expect.anything());
    expect(mounted.allByTestId('session-item')).toHaveLength(100);
    await click(mounted.byTestId('sessions-more'));
    await settle();
    const titles = mounted.allByTestId('session-item').map((el) => el.querySelector('.session-title')?.textContent);
    expect(titles).toHaveLength(120);
    expect(new Set(titles).size).toBe(120);
    expect(mounted.queryByTestId('sessions-more')).toBeNull();
  });

  it('searches after a pause in typing, with the query sent to the host', async () => {
    const { mounted, list } = await openSessions(rows(30));
    await setField(mounted.byTestId('sessions-search'), 'Chat 2');
    // The search goes out after the typing pause: wait for the request itself.
    await untilInAct(() => list.mock.calls.some(([params]) => params.query === 'Chat 2'), 'the search to reach the host');
    await settle();
    expect(list).toHaveBeenLastCalledWith({ query: 'Chat 2', limit: 50, offset: 0 }, expect.anything());
    expect(mounted.allByTestId('session-item').map((el) => el.querySelector('.session-title')?.textContent)).toEqual([
      'Chat 2',
      'Chat 20',
      'Chat 21',
      'Chat 22',
      'Chat 23',
      'Chat 24',
      'Chat 25',
      'Chat 26',
      'Chat 27',
      'Chat 28',
      'Chat 29',
    ]);
  });

  it('renames inline, exports, and reloads the list after a confirmed delete', async () => {
    const all = rows(3);
    const { mounted } = await openSessions(all);
    const rename = vi.fn(({ title }: { id: string; title: string }) => ({ title }));
    const exported = vi.fn((_params: { id: string; format: string }) => ({ exported: true }));
    const del = vi.fn(({ id }: { id: string }) => {
      all.splice(all.findIndex((s) => s.id === id), 1);
      return { deleted: true };
    });
    mounted.host.handle('sessions.rename', rename);
    mounted.host.handle('sessions.export', exported);
    mounted.host.handle('sessions.delete', del);

    await click(mounted.allByTestId('session-rename')[1]!);
    await setField(mounted.byTestId('session-rename-input'), 'Renamed chat');
    await click(mounted.byTestId('session-rename-save'));
    await settle();
    expect(rename).toHaveBeenCalledWith({ id: 's-1', title: 'Renamed chat' }, expect.anything());
    expect(mounted.allByTestId('session-item')[1]!.querySelector('.session-title')?.textContent).toBe('Renamed chat');

    await click(mounted.allByTestId('session-export-md')[0]!);
    await click(mounted.allByTestId('session-export-json')[0]!);
    await settle();
    expect(exported.mock.calls.map((c) => c[0])).toEqual([
      { id: 's-0', format: 'markdown' },
      { id: 's-0', format: 'json' },
    ]);

    await click(mounted.allByTestId('session-delete')[2]!);
    await settle();
    expect(del).toHaveBeenCalledWith({ id: 's-2' }, expect.anything());
    expect(mounted.allByTestId('session-item')).toHaveLength(2);
  });
});

describe('Edit and resend, and branches, on a prompt', () => {
  it('edits a sent prompt and sends it as a new branch', async () => {
    app = await mountApp();
    const mounted = app;
    const resend = vi.fn(() => ({ messageId: 'u9', queued: false }));
    mounted.host.handle('session.editAndResend', resend);
    mounted.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'make it blue'), assistantMessage('a1', 'blue it is')] }));
    await settle();
    await click(mounted.byTestId('edit-resend'));
    const input = mounted.byTestId('edit-resend-input') as HTMLTextAreaElement;
    expect(input.value).toBe('make it blue');
    await typeInto(input, 'make it green');
    await click(mounted.byTestId('edit-resend-send'));
    await settle();
    expect(resend).toHaveBeenCalledWith({ messageId: 'u1', text: 'make it green' }, expect.anything());
    expect(mounted.queryByTestId('edit-resend-box')).toBeNull();
  });

  it('shows which version of an edited prompt is in view and switches to another', async () => {
    app = await mountApp();
    const mounted = app;
    const switched = vi.fn(() => ({ session: { id: 's', title: null } }));
    mounted.host.handle('session.switchBranch', switched);
    mounted.host.emit('snapshot', snapshot({ messages: [{ ...userMessage('u2', 'make it green'), branch: { index: 2, count: 2 } }, assistantMessage('a2', 'green')] }));
    await settle();
    expect(mounted.byTestId('branch-label').textContent).toBe('branch 2/2');
    expect(mounted.byTestId('branch-next').hasAttribute('disabled')).toBe(true);
    await click(mounted.byTestId('branch-prev'));
    await settle();
    expect(switched).toHaveBeenCalledWith({ messageId: 'u2', index: 1 }, expect.anything());
  });
});
