// @vitest-environment jsdom
// The footer's agent and reasoning pickers as the page draws them from the host's state, what
// choosing asks the host, and a task card's subagent usage on its line.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunState } from '../../../src/protocol/sessionState';
import { chooseOption, mountApp, optionLabels, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const run: RunState = { running: false, mode: 'act', approvalMode: 'manual', model: 'openai/gpt-5', queued: 0 };
const config = { modelConfigured: true, workspaceTrusted: true, problem: null };
const agents = [
  { name: 'reviewer', description: 'Reviews changes for bugs.' },
  { name: 'writer', description: '' },
];

async function choose(picker: HTMLElement, label: string): Promise<void> {
  await chooseOption(picker, label);
  await settle();
}

describe('the agent picker', () => {
  it('is not there without custom agents', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ state: run, config }));
    await settle();
    expect(app.queryByTestId('agent-picker')).toBeNull();
  });

  it('lists Keel and the agents, asks the host to switch, and its tooltip is the chosen agent\'s description', async () => {
    app = await mountApp();
    const use = vi.fn(({ name }: { name: string }) => ({ agent: name || null }));
    app.host.handle('agent.use', use);
    app.host.emit('snapshot', snapshot({ state: run, config: { ...config, agents } }));
    await settle();
    const picker = app.byTestId('agent-picker');
    expect(optionLabels(picker)).toEqual(['Keel (no agent)', 'reviewer', 'writer']);
    // Each agent says what it does before it is chosen (on hover, and to a screen reader).
    const reviewer = [...document.querySelectorAll('[role="option"]')].find((o) => o.textContent === 'reviewer')!;
    expect(reviewer.getAttribute('title')).toBe('Reviews changes for bugs.');
    expect(reviewer.getAttribute('aria-description')).toBe('Reviews changes for bugs.');
    expect(picker.dataset.value).toBe('');
    expect(picker.title).toBe("Agent: Keel's own prompt and all of its tools");

    await choose(picker, 'reviewer');
    expect(use).toHaveBeenCalledWith({ name: 'reviewer' }, expect.anything());
    app.host.emit('state', { ...run, agent: 'reviewer' });
    await settle();
    expect(picker.dataset.value).toBe('reviewer');
    expect(picker.title).toBe('Agent: reviewer (Reviews changes for bugs.)');

    await choose(picker, 'Keel (no agent)');
    expect(use).toHaveBeenLastCalledWith({ name: '' }, expect.anything());
  });
});

describe('the reasoning picker', () => {
  it('is there only for a model with reasoning choices, offers its levels, and stores the choice for that model', async () => {
    app = await mountApp();
    const set = vi.fn(() => ({ model: 'openai/gpt-5', planModel: null, baseUrl: null, approvalMode: 'manual' as const, apiKeySet: true, workspaceTrusted: true }));
    app.host.handle('config.set', set);
    app.host.emit('snapshot', snapshot({ state: run, config }));
    await settle();
    expect(app.queryByTestId('reasoning-picker')).toBeNull();

    app.host.emit('state', { ...run, reasoning: { model: 'openai/gpt-5', levels: ['minimal', 'low', 'medium', 'high'], value: 'default' } });
    await settle();
    const picker = app.byTestId('reasoning-picker');
    expect(optionLabels(picker)).toEqual(['Reasoning: default', 'Reasoning: minimal', 'Reasoning: low', 'Reasoning: medium', 'Reasoning: high']);
    expect(picker.title).toBe('Reasoning: default, for openai/gpt-5');
    await choose(picker, 'Reasoning: high');
    expect(set).toHaveBeenCalledWith({ key: 'reasoning', model: 'openai/gpt-5', value: 'high' }, expect.anything());
    // The picker shows what the host says, not what was clicked, until the host says it.
    expect(picker.textContent).toBe('Reasoning: default');
    app.host.emit('state', { ...run, reasoning: { model: 'openai/gpt-5', levels: ['minimal', 'low', 'medium', 'high'], value: 'high' } });
    await settle();
    expect(picker.title).toBe('Reasoning: high, for openai/gpt-5');
  });
});

describe('a task card', () => {
  it('shows its subagent\'s usage on its line, every count in the tooltip', async () => {
    app = await mountApp();
    const display = { title: 'task · reviewer', summary: 'review hello', icon: 'organization', details: { kind: 'keyValue' as const, entries: [] } };
    app.host.emit('snapshot', snapshot({ state: run, config }));
    app.host.emit('message', { message: { id: 'a', role: 'assistant', parts: [], status: 'streaming', createdAt: 1 } });
    app.host.emit('toolUse', { messageId: 'a', toolCallId: 't1', name: 'task', input: {}, display, state: 'running' });
    await settle();
    expect(app.queryByTestId('tool-usage')).toBeNull();
    app.host.emit('toolPatch', { toolCallId: 't1', usage: { inputTokens: 1200, outputTokens: 80, costUsd: 0.0012 } });
    await settle();
    const usage = app.byTestId('tool-usage');
    expect(usage.textContent).toBe('1,280 tokens · $0.0012');
    expect(usage.title).toContain('Input: 1,200 tokens');
  });
});
