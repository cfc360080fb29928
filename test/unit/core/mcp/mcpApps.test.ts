import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appCspPolicy, appPage, readAppCsp, withAppCsp } from '../../../../src/core/mcp/mcpAppHtml';
import { mcpAppUri } from '../../../../src/core/mcp/mcpAppMeta';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import type { ToolContext } from '../../../../src/core/tools/tool';

const board = join(import.meta.dirname, '../../../fixtures/mcp/appServer.mjs');
const none = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

describe("an MCP App's page and policy", () => {
  it('the app is the ui:// URI of _meta.ui.resourceUri or the older flat key; nothing else is one', () => {
    expect(mcpAppUri({ ui: { resourceUri: 'ui://board/app.html' } })).toBe('ui://board/app.html');
    expect(mcpAppUri({ 'ui/resourceUri': 'ui://old/app' })).toBe('ui://old/app');
    expect(mcpAppUri({ ui: { resourceUri: 'https://evil.example/app.html' } })).toBeUndefined();
    expect(mcpAppUri({ ui: { resourceUri: 42 } })).toBeUndefined();
    expect(mcpAppUri(undefined)).toBeUndefined();
  });

  it('without declared domains the app gets no network, no frames and no forms', () => {
    const policy = appCspPolicy(none);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("form-action 'none'");
    expect(policy).toContain("script-src 'self' 'unsafe-inline'");
  });

  it('declared origins reach their directives; keywords, paths and separators a server slips in are dropped', () => {
    const csp = readAppCsp({
      ui: {
        csp: {
          connectDomains: ['https://api.example.com', "'unsafe-eval'", 'https://x.example; script-src *', 'wss://live.example.com:8443'],
          resourceDomains: ['https://*.cdn.example', '*', 'data:', 'https://cdn.example/path/x.js', 'https://*.vscode-cdn.net'],
          frameDomains: 'https://not-a-list.example',
        },
      },
    });
    expect(csp).toEqual({ connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'], resourceDomains: ['https://*.cdn.example'], frameDomains: [], baseUriDomains: [] });
    const policy = appCspPolicy(csp);
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com:8443');
    expect(policy).toContain("img-src 'self' data: blob: https://*.cdn.example");
    expect(policy).not.toContain('unsafe-eval');
  });

  it('the policy goes first into the head, or makes one', () => {
    expect(withAppCsp('<html><head lang="x"><script>1</script></head></html>', none)).toMatch(/^<html><head lang="x"><meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]+"><script>1<\/script>/);
    expect(withAppCsp('<!DOCTYPE html><body>hi</body>', none)).toMatch(/^<!DOCTYPE html><head><meta http-equiv="Content-Security-Policy"[^>]+><\/head><body>hi<\/body>$/);
    expect(withAppCsp('<p>bare</p>', none)).toMatch(/^<head><meta http-equiv="Content-Security-Policy"/);
  });

  it('reads the page from text or base64, and refuses what is not an app', () => {
    const uri = 'ui://a/b';
    expect(appPage({ contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: '<head></head>x' }] }, uri).html).toContain('</head>x');
    const blob = Buffer.from('<head></head>from blob').toString('base64');
    expect(appPage({ contents: [{ uri, mimeType: 'text/html', blob }] }, uri).html).toContain('from blob');
    expect(() => appPage({ contents: [{ uri, mimeType: 'image/png', blob }] }, uri)).toThrow(/not an app's HTML/);
    expect(() => appPage({ contents: [] }, uri)).toThrow(/no content of that URI/);
    expect(appPage({ contents: [{ uri, text: '', _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] } } } }] }, uri).csp.connectDomains).toEqual(['https://api.example.com']);
  });
});

describe('a server with an MCP App, over stdio', () => {
  let dir: string | undefined;
  let m: McpManager | undefined;
  afterEach(async () => {
    await m?.dispose();
    m = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function start(apps: boolean): { manager: McpManager; calls: string } {
    dir = mkdtempSync(join(tmpdir(), 'keel-mcp-app-'));
    const calls = join(dir, 'calls.jsonl');
    m = new McpManager({ workspaceRoot: dir, env: { PATH: process.env.PATH }, log: () => undefined, trusted: true, apps });
    m.setServers([{ name: 'board', origin: 'user', type: 'stdio', command: process.execPath, args: [board, calls], env: {} }]);
    return { manager: m, calls };
  }

  async function run(manager: McpManager, tool: string, input: Record<string, unknown> = {}, onMcpResult?: ToolContext['onMcpResult']) {
    const t = (await manager.tools()).find((x) => x.name === `mcp__board__${tool}`);
    if (!t) throw new Error(`no tool ${tool}`);
    return t.execute(input, { signal: new AbortController().signal, toolCallId: 't1', ...(onMcpResult ? { onMcpResult } : {}) } as ToolContext);
  }

  it('Keel declares the ui extension only where its host draws apps', async () => {
    expect(JSON.parse((await run(start(true).manager, 'client_ui')).output as string)).toEqual({ mimeTypes: ['text/html;profile=mcp-app'] });
    await m?.dispose();
    expect((await run(start(false).manager, 'client_ui')).output).toBe('null');
  });

  it("the tool's result carries the server's own answer and its app; the model still gets text; the page reads with its policy", async () => {
    const { manager, calls } = start(true);
    const result = await run(manager, 'show_board', { title: 'Sprint' });
    expect(result.output).toContain('Board "Sprint" is shown.');
    expect(result.mcp).toMatchObject({ server: 'board', tool: 'show_board', appUri: 'ui://board/app.html', result: { structuredContent: { title: 'Sprint' } } });
    expect(readFileSync(calls, 'utf8')).toContain('"title":"Sprint"');
    const page = await manager.appPage('board', 'ui://board/app.html');
    expect(page.html).toMatch(/<head><meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*connect-src 'none'/);
    expect(page.html).toContain('Waiting for the result');
    // A tool without an app names none in its result; a caller that asks (an app's call) is told the server's answer.
    const answers: unknown[] = [];
    const added = await run(manager, 'add_note', { text: 'x' }, (r) => answers.push(r));
    expect(added).toEqual({ output: 'Added: x' });
    expect(answers).toEqual([{ server: 'board', tool: 'add_note', result: { content: [{ type: 'text', text: 'Added: x' }] } }]);
  });
});
