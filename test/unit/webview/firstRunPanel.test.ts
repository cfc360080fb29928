// @vitest-environment jsdom
// The first-run panel asks for a key only when the endpoint needs one.
import { afterEach, describe, expect, it } from 'vitest';
import { mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

async function panelFor(endpoint: { label: string; baseURL?: string; needsKey: boolean }): Promise<HTMLElement> {
  app = await mountApp();
  app.host.emit('snapshot', snapshot({ config: { modelConfigured: false, workspaceTrusted: true, problem: null, endpoint } }));
  await settle();
  return app.byTestId('first-run');
}

/** Each button's test id and appearance (the `ui-button-<appearance>` class that colours it). */
const buttons = (panel: HTMLElement) =>
  [...panel.querySelectorAll('[data-testid="set-api-key"], [data-testid="open-settings"]')].map((b) => [
    b.getAttribute('data-testid'),
    /\bui-button-(primary|secondary)\b/.exec(b.className)?.[1] ?? null,
  ]);

describe('the first-run panel', () => {
  it('for a hosted endpoint, says a key is needed and puts Set API Key first', async () => {
    const panel = await panelFor({ label: 'OpenAI', needsKey: true });
    expect(panel.textContent).toContain('OpenAI, which needs an API key');
    expect(buttons(panel)).toEqual([
      ['set-api-key', 'primary'],
      ['open-settings', 'secondary'],
    ]);
  });

  it('for a local endpoint, says no key is needed and puts Open Settings first', async () => {
    const panel = await panelFor({ label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', needsKey: false });
    expect(panel.textContent).toContain('Ollama (http://127.0.0.1:11434/v1), which needs no key');
    expect(panel.textContent).not.toMatch(/needs an API key/);
    expect(buttons(panel)).toEqual([
      ['open-settings', 'primary'],
      ['set-api-key', 'secondary'],
    ]);
  });
});
