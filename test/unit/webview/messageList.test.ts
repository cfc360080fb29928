// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { assistantMessage, click, mountApp, settle, snapshot, userMessage } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

function longConversation(count: number): UiMessage[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? userMessage(`m${i}`, `question ${i}`) : assistantMessage(`m${i}`, `answer ${i}`),
  );
}

describe('message list', () => {
  it('opens a long conversation at the bottom with only a few rows mounted', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ messages: longConversation(5000) }));
    await settle();

    const rows = app.allByTestId('message');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(60);
    expect(rows.at(-1)?.textContent).toContain('answer 4999');
    expect(app.container.textContent).not.toContain('question 0');
  });

  it('is a polite live log for screen readers', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ messages: longConversation(2) }));
    await settle();
    const log = app.container.querySelector('[role="log"]');
    expect(log?.getAttribute('aria-live')).toBe('polite');
  });

  it('adds a new message at the bottom while following', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ messages: longConversation(300) }));
    await settle();
    app.host.emit('message', { message: assistantMessage('fresh', 'brand new reply', 'streaming') });
    await settle();
    expect(app.allByTestId('message').at(-1)?.textContent).toContain('brand new reply');
    expect(app.queryByTestId('jump-to-latest')).toBeNull();
  });

  it('offers "jump to latest" after the person scrolls up, and follows again after it', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ messages: longConversation(300) }));
    await settle();
    const scroller = app.container.querySelector('[role="log"]') as HTMLElement;

    // jsdom has no layout: give the scroller the geometry a browser would.
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 20_000 });
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 500 });
    await act(async () => {
      scroller.scrollTop = 19_500;
      scroller.dispatchEvent(new Event('scroll'));
    });
    expect(app.queryByTestId('jump-to-latest')).toBeNull();
    await act(async () => {
      scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -120, bubbles: true }));
      scroller.scrollTop = 12_000;
      scroller.dispatchEvent(new Event('scroll'));
    });

    const jump = app.byTestId('jump-to-latest');
    await click(jump);
    await settle();
    expect(app.queryByTestId('jump-to-latest')).toBeNull();
    expect(scroller.scrollTop).toBe(20_000);
  });
});
