// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolDisplay } from '../../../src/protocol/toolDisplay';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { click, mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

function withCall(name: string, input: Record<string, unknown>, display: ToolDisplay): UiMessage {
  return {
    id: 'a1',
    role: 'assistant',
    status: 'done',
    createdAt: 1,
    parts: [{ type: 'toolCall', toolCallId: 't1', name, input: input as never, display, state: 'done', result: { output: 'ok', isError: false, truncated: false } }],
  };
}

async function openCard(message: UiMessage): Promise<HTMLElement> {
  app = await mountApp();
  app.host.emit('snapshot', snapshot({ messages: [message] }));
  await settle();
  const card = app.byTestId('tool-card');
  await click(card.querySelector('.tool-card-header')!);
  return card;
}

describe('tool cards drawn by their details', () => {
  it('names the call by its title and summary, and shows a command with where it runs', async () => {
    const card = await openCard(
      withCall('bash', { command: 'npm test' }, { title: 'bash', summary: 'npm test', icon: 'terminal', details: { kind: 'command', command: 'npm test', cwd: 'api', background: true } }),
    );
    expect(card.querySelector('.tool-card-name')?.textContent).toBe('bash');
    expect(card.querySelector('.tool-card-headline')?.textContent).toBe('npm test');
    const details = app!.byTestId('tool-details');
    expect(details.dataset.kind).toBe('command');
    expect(details.textContent).toBe('$ npm testin api · in the background');
    expect(app!.byTestId('tool-output').textContent).toBe('ok');
  });

  it('lists a todo list with each item in its state', async () => {
    await openCard(
      withCall('todo_write', { todos: [] }, {
        title: 'todo_write',
        summary: '2 items',
        icon: 'checklist',
        details: { kind: 'todoList', items: [{ content: 'Write it', status: 'completed' }, { content: 'Test it', status: 'pending' }] },
      }),
    );
    const items = [...app!.byTestId('tool-details').querySelectorAll('li')];
    expect(items.map((li) => [li.textContent?.trim(), li.dataset.status])).toEqual([
      ['Write it', 'completed'],
      ['Test it', 'pending'],
    ]);
  });

  it('shows an MCP call as its title with one row per argument, and no raw JSON beside them', async () => {
    const card = await openCard(
      withCall('mcp__github__search_issues', { query: 'crash', limit: 5 }, {
        title: 'github: Search issues',
        summary: 'crash',
        icon: 'plug',
        details: { kind: 'keyValue', entries: [{ key: 'query', value: 'crash' }, { key: 'limit', value: '5' }] },
      }),
    );
    expect(card.querySelector('.tool-card-name')?.textContent).toBe('github: Search issues');
    const rows = [...app!.byTestId('tool-details').querySelectorAll('.tool-details-row')].map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]);
    expect(rows).toEqual([
      ['query', 'crash'],
      ['limit', '5'],
    ]);
    expect(card.querySelectorAll('.tool-card-body pre')).toHaveLength(1);
  });

  it('opens a fetched page through the host, and shows search matches and a file range', async () => {
    const opened = vi.fn(() => ({ opened: true }));
    await openCard(withCall('fetch', { url: 'https://example.com' }, { title: 'fetch', summary: 'https://example.com', icon: 'globe', details: { kind: 'fetchedPage', url: 'https://example.com' } }));
    app!.host.handle('link.open', opened);
    await click(app!.byTestId('tool-details').querySelector('button')!);
    await settle();
    expect(opened).toHaveBeenCalledWith({ url: 'https://example.com' }, expect.anything());
    await app!.unmount();

    await openCard(withCall('grep', { pattern: 'TODO' }, { title: 'grep', summary: 'TODO', icon: 'search', details: { kind: 'search', pattern: 'TODO', scope: 'src', matches: 3 } }));
    expect(app!.byTestId('tool-details').textContent).toBe('TODOin src3 matches');
    await app!.unmount();

    await openCard(withCall('read', { file_path: 'a.ts' }, { title: 'read', summary: 'a.ts', icon: 'file', details: { kind: 'fileChange', path: 'a.ts', range: '40–59' } }));
    expect(app!.byTestId('tool-details').textContent).toBe('a.tslines 40–59');
  });
});
