import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import type { AnyTool, ToolContext, ToolOutputPart } from '../../../../src/core/tools/tool';
import { everythingEntry } from '../../../fixtures/mcp/everythingServer.ts';

let managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
  managers = [];
});

async function everything(): Promise<{ manager: McpManager; read: AnyTool }> {
  const manager = new McpManager({ workspaceRoot: process.cwd(), env: { PATH: process.env.PATH }, log: () => undefined, trusted: true });
  managers.push(manager);
  manager.setServers([{ name: 'everything', origin: 'user', type: 'stdio', command: process.execPath, args: [everythingEntry, 'stdio'], env: {} }]);
  const read = (await manager.tools()).find((t) => t.name === 'mcp_read_resource');
  if (!read) throw new Error('no mcp_read_resource tool for a server with resources');
  return { manager, read };
}

const ctx = () => ({ signal: new AbortController().signal, toolCallId: 't' }) as ToolContext;
const text = (output: string | ToolOutputPart[]) => (typeof output === 'string' ? output : output.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}]`)).join('\n'));

describe('MCP resources (server-everything over stdio)', () => {
  it('lists resources and URI templates, and the read tool is read-only and drawn by present', async () => {
    const { manager, read } = await everything();
    expect(manager.resources().length).toBeGreaterThan(0);
    expect(manager.resourceTemplates().map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    expect(read.category).toBe('read');
    const shown = read.present!({ server: 'everything', uri: 'demo://resource/dynamic/text/1' });
    expect(shown.title).toBe('everything: read resource');
    expect(shown.summary).toBe('demo://resource/dynamic/text/1');
    const listing = text((await read.execute({ server: 'everything' }, ctx())).output);
    expect(listing).toContain(manager.resources()[0]!.uri);
    expect(listing).toContain('demo://resource/dynamic/text/{resourceId}');
  });

  it('reads a text resource filled from a template, and summarises a blob', async () => {
    const { read } = await everything();
    const got = await read.execute({ server: 'everything', uri: 'demo://resource/dynamic/text/3' }, ctx());
    expect(got.isError).toBeUndefined();
    expect(text(got.output)).toMatch(/Resource demo:\/\/resource\/dynamic\/text\/3.*:\n.*3/s);
    const blob = await read.execute({ server: 'everything', uri: 'demo://resource/dynamic/blob/2' }, ctx());
    expect(text(blob.output)).toMatch(/Resource demo:\/\/resource\/dynamic\/blob\/2.*binary, \d+ bytes \(not shown\)/);
  });

  it('names the servers with resources when asked for an unknown one, and reports a failed read', async () => {
    const { read } = await everything();
    const unknown = await read.execute({ server: 'nope', uri: 'demo://x' }, ctx());
    expect(unknown.isError).toBe(true);
    expect(text(unknown.output)).toContain('Servers with resources: everything');
    const bad = await read.execute({ server: 'everything', uri: 'demo://no/such/thing' }, ctx());
    expect(bad.isError).toBe(true);
    expect(text(bad.output)).toContain('Reading demo://no/such/thing from MCP server "everything" failed');
  });
});
