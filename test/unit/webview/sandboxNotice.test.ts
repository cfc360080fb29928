// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { click, mountApp, settle, snapshot } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const missing =
  'No OS sandbox is available here (bubblewrap (bwrap) is not installed or not on PATH): commands run with your full access, without: no network unless you approve it.';

describe('sandbox notice', () => {
  it('says which protections commands lack, can be dismissed, and is not shown where commands are off', async () => {
    app = await mountApp();
    app.host.emit('snapshot', snapshot({ config: { modelConfigured: true, workspaceTrusted: true, problem: null, sandbox: missing } }));
    await settle();
    expect(app.byTestId('sandbox-notice').textContent).toContain('Commands are not fully confined. No OS sandbox is available here');
    expect(app.byTestId('sandbox-notice').textContent).toContain('no network unless you approve it');

    await click(app.byTestId('sandbox-notice-dismiss'));
    expect(app.queryByTestId('sandbox-notice')).toBeNull();

    app.host.emit('config', { modelConfigured: true, workspaceTrusted: false, problem: null, sandbox: `${missing} (again)` });
    await settle();
    expect(app.queryByTestId('sandbox-notice')).toBeNull();
    app.host.emit('config', { modelConfigured: true, workspaceTrusted: true, problem: null });
    await settle();
    expect(app.queryByTestId('sandbox-notice')).toBeNull();
  });
});
