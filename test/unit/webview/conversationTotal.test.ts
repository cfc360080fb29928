// @vitest-environment jsdom
// The conversation's total in the footer: the cost when every call had a price, the tokens
// otherwise, and every count (cache reads and writes, reasoning) in its tooltip. Updated by the
// host's usage event as the conversation goes on.
import { afterEach, describe, expect, it } from 'vitest';
import { mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;
afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

describe('the conversation total in the footer', () => {
  it('shows nothing before the first answer, then the cost with every count in the tooltip', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot());
    await settle();
    expect(app.queryByTestId('conversation-total')).toBeNull();

    app.host.emit('usage', { inputTokens: 2100, outputTokens: 60, cachedInputTokens: 1750, cacheWriteTokens: 250, reasoningTokens: 12, costUsd: 0.0026625 });
    await settle();
    const total = app.byTestId('conversation-total');
    expect(total.textContent).toBe('$0.0027');
    expect(total.getAttribute('title')).toBe(
      ['Input: 2,100 tokens', 'Read from cache: 1,750', 'Written to cache: 250', 'Output: 60 tokens', 'Reasoning: 12', 'Cost: $0.0027'].join('\n'),
    );

    app.host.emit('usage', { inputTokens: 52_100, outputTokens: 1_060, costUsd: 0.42 });
    await settle();
    expect(app.byTestId('conversation-total').textContent).toBe('$0.42');
  });

  it('shows the tokens and says the price is unknown when a call had no price', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ usage: { inputTokens: 1000, outputTokens: 234 } }));
    await settle();
    const total = app.byTestId('conversation-total');
    expect(total.textContent).toBe('1,234 tokens');
    expect(total.getAttribute('title')).toBe('Input: 1,000 tokens\nOutput: 234 tokens\nCost: unknown price');
  });
});
