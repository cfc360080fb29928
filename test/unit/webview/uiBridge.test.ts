// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolApprovalRequest } from '../../../src/protocol/toolApproval';
import type { ConfigSetParams, UiConfig } from '../../../src/protocol/uiConfig';
import { assistantMessage, chooseOption, click, mountApp, optionLabels, settle, snapshot, userMessage } from './webviewHarness';
import type { MountOptions, MountedApp } from './webviewHarness';
import { PROTOCOL_VERSION } from '../../../src/protocol/version';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

async function start(options?: MountOptions): Promise<MountedApp> {
  app = await mountApp(options);
  return app;
}

function messages(mounted: MountedApp): HTMLElement[] {
  return mounted.allByTestId('message');
}

const approvalRequest: ToolApprovalRequest = {
  id: 'ap-1',
  toolCallId: 'call-1',
  tool: 'edit',
  category: 'write',
  summary: 'src/app.ts',
  input: { path: 'src/app.ts' },
  paths: ['/work/src/app.ts'],
  protected: false,
  change: { path: '/work/src/app.ts', displayPath: 'src/app.ts', kind: 'edit', added: 3, removed: 1 },
};

describe('uiBridge with the rendered view', () => {
  it('says ready, then draws the snapshot and streams deltas into the right message', async () => {
    const mounted = await start();
    await settle();
    expect(mounted.ready).toHaveBeenCalledWith({ protocolVersion: PROTOCOL_VERSION });
    // Nothing to draw until the host's snapshot: no composer yet.
    expect(mounted.container.textContent).toContain('Connecting');
    expect(mounted.queryByTestId('composer-input')).toBeNull();

    mounted.host.emit(
      'snapshot',
      snapshot({ messages: [userMessage('u1', 'Explain the build'), assistantMessage('a1', 'The build', 'streaming')] }),
    );
    await settle();
    for (const delta of [' runs', ' **esbuild**', ' twice.\n\nIt']) mounted.host.emit('textDelta', { messageId: 'a1', delta });
    await settle();

    const [user, assistant] = messages(mounted);
    expect(user?.dataset.role).toBe('user');
    expect(user?.textContent).toContain('Explain the build');
    expect(assistant?.dataset.role).toBe('assistant');
    expect(assistant?.dataset.status).toBe('streaming');
    // The finished paragraph is markdown; the one still being written is its text so far.
    expect(assistant?.textContent).toContain('The build runs esbuild twice.');
    expect(assistant?.querySelector('strong')?.textContent).toBe('esbuild');
    mounted.host.emit('textDelta', { messageId: 'a1', delta: ' also *watches*' });
    await settle();
    expect(assistant?.querySelector('[data-testid="md-open"]')?.textContent).toBe('It also *watches*');

    mounted.host.emit('message', { message: assistantMessage('a1', 'The build runs **esbuild** twice.\n\nIt also *watches*.') });
    await settle();
    expect(messages(mounted)[1]?.dataset.status).toBe('done');
    expect(messages(mounted)[1]?.querySelector('[data-testid="md-open"]')).toBeNull();
    expect(messages(mounted)[1]?.querySelector('em')?.textContent).toBe('watches');
  });

  it('answers a toolApproval request through the card’s Approve button', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    await settle();

    const answer = mounted.host.request('toolApproval', approvalRequest);
    await settle();
    const card = mounted.byTestId('approval-card');
    expect(card.textContent).toContain('src/app.ts');
    expect(card.textContent).toContain('+3');
    expect(card.textContent).toContain('−1');
    expect(mounted.queryByTestId('approval-sensitive')).toBeNull();

    await click(mounted.byTestId('approve'));
    await settle();

    await expect(answer).resolves.toEqual({ approved: true, scope: 'once' });
    expect(mounted.queryByTestId('approval-card')).toBeNull();
  });

  it('passes the reason with a rejection', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    await settle();
    const answer = mounted.host.request('toolApproval', approvalRequest);
    await settle();

    const reason = mounted.byTestId('reject-reason') as HTMLElement & { value: string };
    await act(async () => {
      reason.value = 'use the existing helper';
      reason.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(mounted.byTestId('reject'));

    await expect(answer).resolves.toEqual({ approved: false, reason: 'use the existing helper' });
  });

  it('marks a protected path as sensitive and offers no "always allow"', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    await settle();
    const answer = mounted.host.request('toolApproval', { ...approvalRequest, protected: true, summary: '.vscode/settings.json' });
    await settle();

    expect(mounted.byTestId('approval-sensitive').textContent).toMatch(/sensitive/i);
    expect(mounted.queryByTestId('always-allow')).toBeNull();
    await click(mounted.byTestId('reject'));
    await expect(answer).resolves.toEqual({ approved: false });
  });

  it('offers "always allow" for an ordinary call', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    await settle();
    const answer = mounted.host.request('toolApproval', approvalRequest);
    await settle();
    await click(mounted.byTestId('always-allow'));
    await expect(answer).resolves.toEqual({ approved: true, scope: 'session' });
  });

  it('offers a command only by its prefix, and no blanket "always allow" for commands without one', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    await settle();
    const bash = { ...approvalRequest, id: 'ap-2', tool: 'bash', category: 'command' as const, summary: 'npm test -- --watch', change: undefined };
    const first = mounted.host.request('toolApproval', { ...bash, allowPrefixes: ['npm test'] });
    await settle();
    expect(mounted.byTestId('always-allow').textContent).toContain('npm test');
    await click(mounted.byTestId('always-allow'));
    await expect(first).resolves.toEqual({ approved: true, scope: 'session' });

    const second = mounted.host.request('toolApproval', { ...bash, id: 'ap-3' });
    await settle();
    expect(mounted.queryByTestId('always-allow')).toBeNull();
    await click(mounted.byTestId('approve'));
    await expect(second).resolves.toEqual({ approved: true, scope: 'once' });
  });

  it('removes the card when the host withdraws the request', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    await settle();
    const controller = new AbortController();
    const answer = mounted.host.request('toolApproval', approvalRequest, { signal: controller.signal });
    await settle();
    expect(mounted.queryByTestId('approval-card')).not.toBeNull();
    const withdrawn = expect(answer).rejects.toThrow(/cancelled/);
    await act(async () => controller.abort());
    await withdrawn;
    await settle();
    expect(mounted.queryByTestId('approval-card')).toBeNull();
  });

  it('shows tool calls as cards whose status follows the events', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot({ messages: [assistantMessage('a1', 'Checking', 'streaming')] }));
    mounted.host.emit('toolUse', {
      messageId: 'a1',
      toolCallId: 't1',
      name: 'bash',
      input: { command: 'npm test' },
      display: { title: 'bash', summary: 'npm test', icon: 'terminal', details: { kind: 'command', command: 'npm test' } },
      state: 'running',
    });
    await settle();
    const card = mounted.byTestId('tool-card');
    expect(card.dataset.state).toBe('running');
    expect(card.textContent).toContain('npm test');

    mounted.host.emit('toolResult', { toolCallId: 't1', name: 'bash', state: 'done', isError: false, output: '12 passed', truncated: false });
    await settle();
    expect(mounted.byTestId('tool-card').dataset.state).toBe('done');
    await click(mounted.byTestId('tool-card').querySelector('button') as HTMLElement);
    expect(mounted.byTestId('tool-output').textContent).toBe('12 passed');
  });

  it('asks the host to open a clicked link instead of navigating', async () => {
    const mounted = await start();
    const opened = vi.fn(() => ({ opened: true }));
    mounted.host.handle('link.open', opened);
    mounted.host.emit('snapshot', snapshot({ messages: [assistantMessage('a1', 'See [the docs](https://example.com/docs).')] }));
    await settle();

    const link = mounted.container.querySelector('[data-href]');
    expect(link?.getAttribute('href')).toBeNull();
    await click(link as Element);
    await settle();
    expect(opened).toHaveBeenCalledWith({ url: 'https://example.com/docs' }, expect.anything());
  });

  it('shows an error event with Retry, which sends the last prompt again', async () => {
    const mounted = await start();
    const send = vi.fn(() => ({ messageId: 'u2', queued: false }));
    mounted.host.handle('session.send', send);
    mounted.host.emit('snapshot', snapshot({ messages: [userMessage('u1', 'Refactor the parser')] }));
    mounted.host.emit('error', { code: 'model_unreachable', message: 'The model did not answer.', retryable: true });
    await settle();

    expect(mounted.byTestId('error-banner').textContent).toContain('The model did not answer.');
    await click(mounted.byTestId('retry'));
    await settle();
    expect(send).toHaveBeenCalledWith({ text: 'Refactor the parser' }, expect.anything());
    expect(mounted.queryByTestId('error-banner')).toBeNull();
  });

  it('notes a retry in progress', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    mounted.host.emit('retry', { attempt: 2, maxAttempts: 5, error: '429 Too Many Requests', delayMs: 1000 });
    await settle();
    expect(mounted.byTestId('retry-note').textContent).toContain('Retrying (2/5)');
  });

  it('shows the first-run panel without a model, and its buttons ask the host', async () => {
    const mounted = await start();
    const run = vi.fn(() => ({ ran: true }));
    const settings = vi.fn(() => ({ opened: true }));
    mounted.host.handle('command.run', run);
    mounted.host.handle('settings.open', settings);
    mounted.host.emit(
      'snapshot',
      snapshot({ config: { modelConfigured: false, workspaceTrusted: true, problem: null }, state: { ...snapshot().state, model: null } }),
    );
    await settle();

    expect(mounted.byTestId('first-run').textContent).toMatch(/no model is configured/i);
    await click(mounted.byTestId('set-api-key'));
    await click(mounted.byTestId('open-settings'));
    await settle();
    expect(run).toHaveBeenCalledWith({ command: 'keel.setApiKey' }, expect.anything());
    expect(settings).toHaveBeenCalledWith({ query: 'keel' }, expect.anything());

    mounted.host.emit('config', { modelConfigured: true, workspaceTrusted: true, problem: null });
    await settle();
    expect(mounted.queryByTestId('first-run')).toBeNull();
  });

  it('says write and command tools are off in an untrusted workspace', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot({ config: { modelConfigured: true, workspaceTrusted: false, problem: null } }));
    await settle();
    expect(mounted.byTestId('untrusted-banner').textContent).toMatch(/file edits, commands and MCP tools are off/);
  });

  it('lists past sessions on view.show and resumes the one clicked', async () => {
    const mounted = await start();
    const list = vi.fn(() => ({
      sessions: [
        { id: 's-2', title: 'Add caching', createdAt: 1, updatedAt: 2, messageCount: 4, preview: 'Add a cache' },
        { id: 's-1', title: 'Fix the build', createdAt: 1, updatedAt: 1, messageCount: 9 },
      ],
      total: 2,
    }));
    const resume = vi.fn(() => ({ session: { id: 's-2', title: 'Add caching' } }));
    mounted.host.handle('sessions.list', list);
    mounted.host.handle('sessions.resume', resume);
    mounted.host.emit('snapshot', snapshot());
    mounted.host.emit('view.show', { panel: 'sessions' });
    await settle();

    expect(mounted.byTestId('sessions-list').getAttribute('aria-label')).toBe('Past chats');
    expect(list).toHaveBeenCalledWith({ limit: 50, offset: 0 }, expect.anything());
    const items = mounted.allByTestId('session-item');
    expect(items.map((item) => item.querySelector('.session-title')?.textContent)).toEqual(['Add caching', 'Fix the build']);
    await click(items[0] as HTMLElement);
    await settle();
    expect(resume).toHaveBeenCalledWith({ id: 's-2' }, expect.anything());
    expect(mounted.queryByTestId('sessions-list')).toBeNull();
    expect(mounted.queryByTestId('composer-input')).not.toBeNull();
  });

  it('starts a new chat from the header', async () => {
    const mounted = await start();
    const newChat = vi.fn(() => ({ session: { id: null, title: null } }));
    mounted.host.handle('session.new', newChat);
    mounted.host.emit('snapshot', snapshot());
    await settle();
    await click(mounted.byTestId('new-chat'));
    await settle();
    expect(newChat).toHaveBeenCalledTimes(1);
  });

  it('changes the approval mode and the model through config.set', async () => {
    const mounted = await start({ models: [{ id: 'gpt-x' }, { id: 'gpt-y', label: 'GPT Y' }] });
    const set = vi.fn((params: ConfigSetParams): UiConfig => ({
      model: 'gpt-y',
      planModel: null,
      baseUrl: null,
      approvalMode: params.key === 'approvalMode' ? params.value : 'manual',
      apiKeySet: true,
      workspaceTrusted: true,
    }));
    mounted.host.handle('config.set', set);
    mounted.host.emit('snapshot', snapshot());
    await settle();

    const modelPicker = mounted.byTestId('model-picker');
    expect(optionLabels(modelPicker)).toEqual(['gpt-x', 'GPT Y']);
    await chooseOption(modelPicker, 'GPT Y');
    await chooseOption(mounted.byTestId('mode-picker'), 'Auto-approve edits');
    await settle();

    expect(set).toHaveBeenCalledWith({ key: 'model', value: 'gpt-y' }, expect.anything());
    expect(set).toHaveBeenCalledWith({ key: 'approvalMode', value: 'autoEdit' }, expect.anything());
  });

  it('fills the context meter from usage', async () => {
    const mounted = await start();
    mounted.host.emit('snapshot', snapshot());
    mounted.host.emit('usage', { inputTokens: 10, outputTokens: 5, contextTokens: 64_000, contextWindow: 128_000 });
    await settle();
    expect(mounted.byTestId('context-meter').getAttribute('title')).toBe('64,000 of 128,000 tokens in context (50%)');
  });
});
