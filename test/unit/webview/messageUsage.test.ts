// @vitest-environment jsdom
// Usage a person finds without devtools: a line under each answer (every count in its tooltip,
// the cost or "unknown price"), set by the host's messagePatch; and the context meter's button
// that opens what fills the window and how close compaction is, from the keyboard too.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const answer: UiMessage = { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Done.' }], status: 'done', createdAt: 1 };

describe('usage per message', () => {
  it('shows the usage line when the host patches it onto the answer', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ messages: [answer] }));
    await settle();
    expect(app.queryByTestId('message-usage')).toBeNull();

    app.host.emit('messagePatch', { messageId: 'a1', usage: { inputTokens: 1200, outputTokens: 80, cachedInputTokens: 1000, cacheWriteTokens: 150, reasoningTokens: 20, costUsd: 0.0012 } });
    await settle();
    const line = app.byTestId('message-usage');
    expect(line.textContent).toBe('1,200 in (1,000 cached, 150 to cache) · 80 out (20 reasoning) · $0.0012');
    expect(line.getAttribute('title')).toBe(['Input: 1,200 tokens', 'Read from cache: 1,000', 'Written to cache: 150', 'Output: 80 tokens', 'Reasoning: 20', 'Cost: $0.0012'].join('\n'));

    app.host.emit('messagePatch', { messageId: 'a1', usage: { inputTokens: 10, outputTokens: 2 } });
    await settle();
    expect(app.byTestId('message-usage').textContent).toBe('10 in · 2 out · unknown price');
  });
});

describe('what fills the context window', () => {
  it('opens the parts, largest first, and the compaction size from a button; Escape closes it', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot());
    await settle();
    app.host.emit('usage', {
      inputTokens: 5000,
      outputTokens: 100,
      contextTokens: 5100,
      contextWindow: 100_000,
      compactAt: 80_000,
      contextParts: { system: 3000, rules: 200, workspace: 400, mentions: 0, history: 900, toolResults: 600 },
    });
    await settle();
    const toggle = app.byTestId('context-breakdown-toggle') as HTMLButtonElement;
    const panel = app.byTestId('context-breakdown');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(panel.hidden).toBe(true);
    expect(toggle.getAttribute('aria-controls')).toBe(panel.id);

    await act(async () => toggle.click());
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    const parts = app.allByTestId('context-part');
    expect(parts.map((p) => p.textContent)).toEqual([
      'System prompt and tools: 3,000 tokens',
      'Conversation: 900 tokens',
      'Tool results: 600 tokens',
      'Workspace context: 400 tokens',
      'Rules: 200 tokens',
    ]);
    expect(parts.reduce((n, p) => n + Number(p.dataset.tokens), 0)).toBe(5100);
    expect(app.byTestId('context-compaction').textContent).toBe('Compacts automatically at 80,000 tokens (74,900 to go)');

    toggle.focus();
    await act(async () => toggle.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(panel.hidden).toBe(true);
    expect(document.activeElement).toBe(toggle);
  });
});
