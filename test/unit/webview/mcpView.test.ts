// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpStatusView } from '../../../src/protocol/mcpStatus';
import { click, mountApp, pressKey, settle, snapshot, typeInto } from './webviewHarness';
import type { MountedApp } from './webviewHarness';

let app: MountedApp | undefined;

afterEach(async () => {
  await app?.unmount();
  app = undefined;
});

const status: McpStatusView = {
  servers: [
    { name: 'everything', state: 'ready', text: 'ready, 12 tools, 4 prompts' },
    { name: 'broken', state: 'failed', text: 'failed: could not start (stderr: cannot open the database)' },
  ],
  prompts: [{ command: 'mcp.everything.args-prompt', server: 'everything', name: 'args-prompt', arguments: [{ name: 'city', required: true }] }],
  resources: [
    { server: 'everything', uri: 'test://static/resource/1', name: 'Resource 1', description: 'A plain text resource' },
    { server: 'everything', uri: 'file:///docs/guide.md', name: 'Guide' },
  ],
};

async function ready() {
  const mounted = await mountApp();
  app = mounted;
  const send = vi.fn((_params: unknown) => ({ messageId: 'm-new', queued: false }));
  const prompt = vi.fn((_params: unknown) => ({ text: "What's weather in Lisbon?" }));
  mounted.host.handle('session.send', send);
  mounted.host.handle('mcp.prompt', prompt);
  mounted.host.emit('mcp.status', status);
  mounted.host.emit('snapshot', snapshot());
  await settle();
  return { mounted, send, prompt, input: mounted.byTestId('composer-input') as HTMLTextAreaElement };
}

describe('MCP in the view', () => {
  it('lists each server with its state, kept across a new snapshot, and opens when one failed', async () => {
    const { mounted } = await ready();
    const list = mounted.byTestId('mcp-status') as HTMLDetailsElement;
    expect(list.querySelector('summary')?.textContent).toBe('MCP 1/2 ready, 1 failed');
    expect(list.open).toBe(true);
    const rows = [...list.querySelectorAll('[data-testid="mcp-server"]')].map((r) => r.textContent);
    expect(rows).toEqual(['everything ready, 12 tools, 4 prompts', 'broken failed: could not start (stderr: cannot open the database)']);
  });

  it('"Manage" opens the MCP Servers quick pick', async () => {
    const { mounted } = await ready();
    const run = vi.fn((_params: unknown) => ({ ran: true }));
    mounted.host.handle('command.run', run);
    await click(mounted.byTestId('mcp-manage'));
    await settle();
    expect(run).toHaveBeenCalledWith({ command: 'keel.showMcpServers' }, expect.anything());
  });

  it('sends a prompt command as the text the server filled in', async () => {
    const { send, prompt, input } = await ready();
    await typeInto(input, '/mcp.everything.args-prompt Lisbon');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(prompt).toHaveBeenCalledWith({ server: 'everything', prompt: 'args-prompt', args: { city: 'Lisbon' } }, expect.anything());
    expect(send).toHaveBeenCalledWith({ text: "What's weather in Lisbon?" }, expect.anything());
  });

  it('a prompt without its required argument is explained, not sent', async () => {
    const { mounted, send, prompt, input } = await ready();
    await typeInto(input, '/mcp.everything.args');
    // The first Enter takes the completion, the second sends.
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(input.value).toBe('/mcp.everything.args-prompt ');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(prompt).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
    expect(mounted.container.textContent).toMatch(/needs city/);
  });

  it('offers a server\'s resources in the @-menu and sends the picked one as a resource mention', async () => {
    const { mounted, send, input } = await ready();
    await typeInto(input, 'summarise @guid');
    const items = [...mounted.container.querySelectorAll('[role="option"]')].map((o) => o.textContent ?? '');
    expect(items.some((t) => t.includes('@everything:Guide') && t.includes('file:///docs/guide.md'))).toBe(true);
    expect(items.some((t) => t.includes('Resource 1'))).toBe(false);
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(input.value).toBe('summarise @everything:file:///docs/guide.md ');
    await pressKey(input, { key: 'Enter' });
    await settle();
    expect(send).toHaveBeenCalledWith(
      { text: 'summarise @everything:file:///docs/guide.md ', mentions: [{ kind: 'resource', server: 'everything', uri: 'file:///docs/guide.md' }] },
      expect.anything(),
    );
  });
});
