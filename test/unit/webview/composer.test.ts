// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusError } from '../../../src/protocol/busError';
import { click, mountApp, pressKey, settle, snapshot, typeInto, userMessage } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

/** A mounted view with a snapshot drawn and a recording session.send handler. */
async function ready(overrides: Parameters<typeof snapshot>[0] = {}, options: Parameters<typeof mountApp>[0] = {}) {
  const mounted = await mountApp(options);
  app = mounted;
  const send = vi.fn((_params: unknown) => ({ messageId: 'm-new', queued: false }));
  mounted.host.handle('session.send', send);
  mounted.host.emit('snapshot', snapshot(overrides));
  await settle();
  const input = mounted.byTestId('composer-input') as HTMLTextAreaElement;
  return { mounted, send, input };
}

describe('composer', () => {
  it('is focused when the view opens', async () => {
    const { input } = await ready();
    expect(document.activeElement).toBe(input);
  });

  it('sends on Enter, clears itself and keeps focus', async () => {
    const { send, input } = await ready();
    await typeInto(input, 'Add a test for the parser');
    const notCancelled = await pressKey(input, { key: 'Enter' });
    await settle();

    expect(notCancelled).toBe(false);
    expect(send).toHaveBeenCalledWith({ text: 'Add a test for the parser' }, expect.anything());
    expect(input.value).toBe('');
    expect(document.activeElement).toBe(input);
  });

  it('leaves Shift+Enter to the textarea (a new line) and does not send', async () => {
    const { send, input } = await ready();
    await typeInto(input, 'line one');
    const notCancelled = await pressKey(input, { key: 'Enter', shiftKey: true });
    await settle();
    expect(notCancelled).toBe(true);
    expect(send).not.toHaveBeenCalled();
  });

  it('does not send while an IME is composing', async () => {
    const { send, input } = await ready();
    await typeInto(input, 'にほん');
    await act(async () => {
      input.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true }));
    });
    await pressKey(input, { key: 'Enter' });
    await pressKey(input, { key: 'Enter', isComposing: true });
    await settle();
    expect(send).not.toHaveBeenCalled();

    await act(async () => {
      input.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: 'にほん' }));
    });
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ text: 'にほん' }, expect.anything());
  });

  it('does not send an empty message', async () => {
    const { send, input, mounted } = await ready();
    await typeInto(input, '   ');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).not.toHaveBeenCalled();
    expect(mounted.byTestId('send').hasAttribute('disabled')).toBe(true);
  });

  it('sends /plan <task> in plan mode', async () => {
    const { send, input } = await ready();
    await typeInto(input, '/plan migrate the config loader');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ text: 'migrate the config loader', mode: 'plan' }, expect.anything());
  });

  it('runs /new through its request', async () => {
    const { input, mounted } = await ready();
    const newChat = vi.fn(() => ({ session: { id: null, title: null } }));
    mounted.host.handle('session.new', newChat);
    await typeInto(input, '/new');
    await pressKey(input, { key: 'Enter' }); // Enter on the popup's only entry runs it
    await settle();
    expect(newChat).toHaveBeenCalledTimes(1);
  });

  it('opens the sessions list with /sessions and help with /help', async () => {
    const { input, mounted } = await ready();
    mounted.host.handle('sessions.list', () => ({ sessions: [], total: 0 }));
    await typeInto(input, '/help');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(mounted.byTestId('help-box').textContent).toContain('/plan <task>');

    await typeInto(mounted.byTestId('composer-input') as HTMLTextAreaElement, '/sessions');
    await pressKey(mounted.byTestId('composer-input'), { key: 'Enter' });
    await settle();
    expect(mounted.container.textContent).toContain('No past chats in this workspace yet.');
  });

  it('refuses an unknown command with a note and keeps the text', async () => {
    const { send, input, mounted } = await ready();
    await typeInto(input, '/deploy prod');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).not.toHaveBeenCalled();
    expect(mounted.byTestId('error-banner').textContent).toContain('There is no /deploy command');
    expect(input.value).toBe('/deploy prod');
  });

  it("offers the person's command files and skills after /, and sends /name with its arguments for the core to expand", async () => {
    const commands = [
      { name: 'fix-issue', description: 'Fix a GitHub issue by number', kind: 'command' as const, source: '.claude/commands/fix-issue.md' },
      { name: 'frontend:review', description: '', kind: 'command' as const, source: '.claude/commands/frontend/review.md' },
      { name: 'pdf-forms', description: 'Fill PDF forms', kind: 'skill' as const, source: '.claude/skills/pdf-forms' },
    ];
    const { send, input, mounted } = await ready({}, { slashCommands: commands });
    await typeInto(input, '/f');
    await settle();
    expect(mounted.allByTestId('completion-item').map((item) => item.textContent)).toEqual([
      expect.stringContaining('/fix-issue'),
      expect.stringContaining('/frontend:review'),
    ]);
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(input.value).toBe('/fix-issue ');
    await typeInto(input, '/fix-issue 1234');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ text: '/fix-issue 1234' }, expect.anything());

    await typeInto(mounted.byTestId('composer-input') as HTMLTextAreaElement, '/pdf');
    await settle();
    expect(mounted.allByTestId('completion-item').map((item) => item.textContent)).toEqual([expect.stringContaining('Fill PDF forms')]);
  });

  it('takes files and folders dropped from the explorer as chips, and says which were outside the workspace', async () => {
    const { mounted, send, input } = await ready();
    const fromUris = vi.fn((_params: { uris: string[] }) => ({ mentions: [{ kind: 'file' as const, path: 'src/a.ts' }, { kind: 'folder' as const, path: 'lib' }], outside: 1 }));
    mounted.host.handle('mentions.fromUris', fromUris);
    const composer = mounted.byTestId('composer');
    const data = new Map([['text/uri-list', '# dragged\nfile:///ws/src/a.ts\nfile:///ws/lib\nfile:///elsewhere/x.ts']]);
    const transfer = { types: [...data.keys()], files: [], getData: (type: string) => data.get(type) ?? '', dropEffect: 'none' };
    await act(async () => {
      const over = new Event('dragover', { bubbles: true, cancelable: true });
      Object.assign(over, { dataTransfer: transfer });
      composer.dispatchEvent(over);
      const drop = new Event('drop', { bubbles: true, cancelable: true });
      Object.assign(drop, { dataTransfer: transfer });
      composer.dispatchEvent(drop);
    });
    await settle();
    expect(fromUris).toHaveBeenCalledWith({ uris: ['file:///ws/src/a.ts', 'file:///ws/lib', 'file:///elsewhere/x.ts'] }, expect.anything());
    expect(mounted.allByTestId('mention-chip').map((c) => c.textContent)).toEqual([expect.stringContaining('src/a.ts'), expect.stringContaining('lib')]);
    expect(mounted.byTestId('error-banner').textContent).toContain('Only files and folders of this workspace can be added (1 left out).');
    await typeInto(input, 'look at these');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ text: 'look at these', mentions: [{ kind: 'file', path: 'src/a.ts' }, { kind: 'folder', path: 'lib' }] }, expect.anything());
  });

  it('completes @ mentions from files.search and sends them', async () => {
    const { send, input, mounted } = await ready();
    const search = vi.fn(({ query }: { query: string }) => ({
      results: [
        { path: `src/${query}p.ts`, kind: 'file' as const },
        { path: 'src/api', kind: 'folder' as const },
      ],
    }));
    mounted.host.handle('files.search', search);

    await typeInto(input, 'Read @a');
    await settle();
    expect(search).toHaveBeenLastCalledWith({ query: 'a', limit: 20 }, expect.anything());
    const items = mounted.allByTestId('completion-item');
    expect(items.map((item) => item.textContent)).toEqual(['src/ap.ts', 'src/api']);

    await pressKey(input, { key: 'ArrowDown' });
    expect(mounted.allByTestId('completion-item')[1]?.getAttribute('aria-selected')).toBe('true');
    await pressKey(input, { key: 'ArrowUp' });
    await pressKey(input, { key: 'Enter' });
    await settle();

    expect(input.value).toBe('Read @src/ap.ts ');
    expect(mounted.queryByTestId('completion-popup')).toBeNull();
    expect(mounted.byTestId('mention-chip').textContent).toContain('src/ap.ts');

    await typeInto(input, 'Read @src/ap.ts and fix it');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith(
      { text: 'Read @src/ap.ts and fix it', mentions: [{ kind: 'file', path: 'src/ap.ts' }] },
      expect.anything(),
    );
  });

  it('offers @terminal and sends it as a mention', async () => {
    const { send, input, mounted } = await ready();
    mounted.host.handle('files.search', () => ({ results: [] }));
    await typeInto(input, 'why did it fail? @term');
    await settle();
    expect(mounted.allByTestId('completion-item').map((item) => item.textContent)).toEqual([expect.stringContaining('@terminal')]);
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(mounted.byTestId('mention-chip').textContent).toContain('@terminal');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith({ text: 'why did it fail? @terminal ', mentions: [{ kind: 'terminal' }] }, expect.anything());
  });

  it('offers @problems, @selection, @git and @url beside files, and sends them as mentions', async () => {
    const { send, input, mounted } = await ready();
    mounted.host.handle('files.search', () => ({ results: [{ path: 'src/print.ts', kind: 'file' as const }] }));

    await typeInto(input, 'Fix @pr');
    await settle();
    expect(mounted.allByTestId('completion-item').map((item) => item.textContent)).toEqual([
      expect.stringContaining('@problems'),
      expect.stringContaining('src/print.ts'),
    ]);
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(input.value).toBe('Fix @problems ');
    expect(mounted.byTestId('mention-chip').textContent).toContain('@problems');

    await typeInto(input, 'Fix @problems as in @u');
    await settle();
    expect(mounted.allByTestId('completion-item')[0]?.textContent).toContain('@url <address>');
    await pressKey(input, { key: 'Enter' });
    await settle();
    // The address is typed after it; only then is there something to attach.
    expect(input.value).toBe('Fix @problems as in @https://');
    expect(mounted.allByTestId('mention-chip')).toHaveLength(1);

    await typeInto(input, 'Fix @problems as in @https://example.com/style');
    await settle();
    expect(mounted.allByTestId('completion-item')[0]?.textContent).toContain('https://example.com/style');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(input.value).toBe('Fix @problems as in @https://example.com/style ');

    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith(
      {
        text: 'Fix @problems as in @https://example.com/style ',
        mentions: [{ kind: 'problems' }, { kind: 'url', url: 'https://example.com/style' }],
      },
      expect.anything(),
    );
  });

  it('attaches a pasted image with a thumbnail and sends it', async () => {
    const { send, input, mounted } = await ready();
    const image = new File([new Uint8Array([1, 2, 3])], 'shot.png', { type: 'image/png' });
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', { value: { files: [image], getData: () => '' } });
    await act(async () => {
      input.dispatchEvent(paste);
    });
    await settle();
    expect(paste.defaultPrevented).toBe(true);
    expect(mounted.allByTestId('image-attachment')).toHaveLength(1);

    await click(mounted.byTestId('send'));
    await settle();
    expect(send).toHaveBeenCalledWith({ text: '', images: [{ mediaType: 'image/png', data: 'AQID' }] }, expect.anything());
    expect(mounted.allByTestId('image-attachment')).toHaveLength(0);
  });

  it('shows Stop while running, cancels through the host, and shows the queued count', async () => {
    const { input, mounted, send } = await ready({
      state: { running: true, mode: 'act', approvalMode: 'manual', model: 'gpt-x', queued: 0 },
    });
    const cancel = vi.fn(() => ({ cancelled: true }));
    mounted.host.handle('session.cancel', cancel);

    await typeInto(input, 'also update the docs');
    await pressKey(input, { key: 'Enter' });
    mounted.host.emit('state', { running: true, mode: 'act', approvalMode: 'manual', model: 'gpt-x', queued: 1 });
    await settle();
    expect(send).toHaveBeenCalledTimes(1);
    expect(mounted.byTestId('queued-count').textContent).toBe('1 queued');

    await click(mounted.byTestId('stop'));
    await settle();
    expect(cancel).toHaveBeenCalledTimes(1);

    mounted.host.emit('state', { running: false, mode: 'act', approvalMode: 'manual', model: 'gpt-x', queued: 0 });
    await settle();
    expect(mounted.queryByTestId('stop')).toBeNull();
  });

  it('gives the draft back when sending fails', async () => {
    const mounted = await mountApp();
    app = mounted;
    mounted.host.handle('session.send', () => {
      throw new BusError('model_not_configured', 'No model is configured. Run "Keel: Set API Key".');
    });
    mounted.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'hi')] }));
    await settle();
    const input = mounted.byTestId('composer-input') as HTMLTextAreaElement;

    await typeInto(input, 'a long careful prompt');
    await pressKey(input, { key: 'Enter' });
    await settle();

    expect(input.value).toBe('a long careful prompt');
    const banner = mounted.byTestId('error-banner');
    expect(banner.dataset.code).toBe('model_not_configured');
    expect(banner.textContent).toContain('No model is configured');
  });

  it('takes text, mentions and plan mode from the host’s composer event', async () => {
    const { send, mounted } = await ready();
    mounted.host.emit('composer', {
      text: 'Explain this selection',
      mentions: [{ kind: 'file', path: 'src/a.ts', range: { startLine: 3, endLine: 9 } }],
      mode: 'plan',
    });
    await settle();
    const input = mounted.byTestId('composer-input') as HTMLTextAreaElement;
    expect(input.value).toBe('Explain this selection');
    expect(mounted.byTestId('mention-chip').textContent).toContain('src/a.ts:3-9');
    expect(mounted.queryByTestId('plan-chip')).not.toBeNull();
    expect(document.activeElement).toBe(input);

    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith(
      {
        text: 'Explain this selection',
        mentions: [{ kind: 'file', path: 'src/a.ts', range: { startLine: 3, endLine: 9 } }],
        mode: 'plan',
      },
      expect.anything(),
    );
  });
});
