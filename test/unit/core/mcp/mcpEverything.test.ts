import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../../src/core/context';
import { createFsHost } from '../../../../src/core/fsHost';
import { parseMcpConfig } from '../../../../src/core/mcp/mcpConfig';
import { Project } from '../../../../src/core/project';
import type { ApprovalRequest } from '../../../../src/core/tools/tool';
import { everythingEntry, startEverythingHttp } from '../../../fixtures/mcp/everythingServer.ts';
import type { RunningServer } from '../../../fixtures/mcp/everythingServer.ts';
import { reply } from '../../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';
import type { Turn } from '../../../fixtures/scriptedServer/scenarioTypes.ts';

let model: ScriptedServer;
let dir: string;
let ws: string;
let contexts: Context[] = [];
let http: RunningServer[] = [];

beforeAll(async () => {
  model = await startScriptedServer();
});
afterAll(() => model.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-mcp-everything-'));
  ws = join(dir, 'ws');
  mkdirSync(ws);
  mkdirSync(join(dir, 'home'));
});
afterEach(async () => {
  await Promise.all(contexts.map((c) => c.destroy()));
  await Promise.all(http.map((h) => h.close()));
  contexts = [];
  http = [];
  rmSync(dir, { recursive: true, force: true });
});

async function project(turns: Turn[], servers: unknown) {
  model.load({ turns });
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host: createFsHost(),
    env: { KEEL_HOME: join(dir, 'home'), PATH: process.env.PATH },
    overrides: [{ model: 'local/scripted', providers: { local: { baseURL: model.baseURL } } }],
    mcpServers: parseMcpConfig(servers, 'cli', { workspaceFolder: ws, env: {} }, '--mcp-config'),
  });
  contexts.push(ctx);
  return { ctx, project: new Project(ctx, ctx.sessions.create()) };
}

const stdio = { servers: { everything: { type: 'stdio', command: process.execPath, args: [everythingEntry, 'stdio'] } } };
const lastToolMessage = () => JSON.stringify(model.requests.at(-1)?.body.messages.at(-1));
const offeredTools = (i: number) => ((model.requests[i]?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe('MCP with @modelcontextprotocol/server-everything', () => {
  it('over stdio: the model calls an MCP tool and the result reaches the next request', async () => {
    const { project: p } = await project(
      [reply.tool('mcp__everything__echo', { message: 'hello from keel' }, { match: { toolsInclude: ['mcp__everything__echo', 'mcp__everything__get-sum'] } }), reply.text('done')],
      stdio,
    );
    const result = await p.send('echo something');
    expect(result.status).toBe('completed');
    expect(lastToolMessage()).toContain('Echo: hello from keel');
    // The model got the server's own JSON schema.
    const echo = (model.requests[0]!.body.tools as { function: { name: string; parameters: { properties: object } } }[]).find((t) => t.function.name === 'mcp__everything__echo');
    expect(echo?.function.parameters.properties).toHaveProperty('message');
  });

  it('a network tool asks for approval; a read-only one does not', async () => {
    const { project: p } = await project(
      [reply.tool('mcp__everything__toggle-simulated-logging', {}), reply.tool('mcp__everything__get-sum', { a: 2, b: 3 }), reply.text('ok')],
      stdio,
    );
    const asked: ApprovalRequest[] = [];
    await p.send('go', { onToolApprove: async (r) => (asked.push(r), { approved: true }) });
    expect(asked.map((r) => [r.tool, r.category])).toEqual([['mcp__everything__toggle-simulated-logging', 'network']]);
    expect(asked[0]!.summary).toMatch(/^MCP everything: toggle-simulated-logging/);
    expect(lastToolMessage()).toMatch(/The sum of 2 and 3 is 5/);
  });

  it('plan mode offers only the read-only MCP tools', async () => {
    const { project: p } = await project([reply.text('the plan')], stdio);
    await p.plan('plan it');
    const names = offeredTools(0);
    expect(names).toContain('mcp__everything__echo');
    expect(names).not.toContain('mcp__everything__toggle-simulated-logging');
  });

  it('lists prompts as slash commands and resources, and fills a prompt', async () => {
    const { ctx } = await project([], stdio);
    await ctx.mcp.tools();
    expect(ctx.mcp.prompts().map((p) => p.command)).toContain('mcp.everything.simple-prompt');
    expect(ctx.mcp.resources().length).toBeGreaterThan(0);
    const listed = ctx.mcp.catalogue('everything');
    expect(listed.tools.find((t) => t.name === 'echo')).toMatchObject({ readOnly: true });
    expect(listed.resources.length).toBe(ctx.mcp.resources().length);
    expect(await ctx.mcp.promptText('everything', 'args-prompt', { city: 'Lisbon' })).toMatch(/Lisbon/);
  });

  it('over streamable HTTP', async () => {
    const server = await startEverythingHttp('streamableHttp');
    http.push(server);
    const { project: p, ctx } = await project([reply.tool('mcp__web__echo', { message: 'over http' }), reply.text('done')], {
      servers: { web: { type: 'http', url: `http://127.0.0.1:${server.port}/mcp` } },
    });
    expect((await p.send('echo')).status).toBe('completed');
    expect(lastToolMessage()).toContain('Echo: over http');
    expect(ctx.mcp.status()[0]).toMatchObject({ name: 'web', transport: 'http', state: 'ready' });
  });

  it('an HTTP server that goes away: the call ends with an error and the server is marked failed', async () => {
    const server = await startEverythingHttp('streamableHttp');
    http.push(server);
    const { ctx } = await project([], { servers: { web: { type: 'http', url: `http://127.0.0.1:${server.port}/mcp` } } });
    const echo = (await ctx.mcp.tools()).find((t) => t.name === 'mcp__web__echo')!;
    await server.close();
    const result = await echo.execute({ message: 'anyone?' }, { signal: new AbortController().signal, toolCallId: 'x' } as never);
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/MCP tool "echo" of server "web" failed/);
    expect(ctx.mcp.status()[0]).toMatchObject({ state: 'failed', reason: expect.stringMatching(/closed the connection; restarting in/) });
  });

  it('falls back to SSE for a server that only speaks it', async () => {
    const server = await startEverythingHttp('sse');
    http.push(server);
    const { project: p, ctx } = await project([reply.tool('mcp__old__echo', { message: 'over sse' }), reply.text('done')], {
      servers: { old: { type: 'http', url: `http://127.0.0.1:${server.port}/sse` } },
    });
    expect((await p.send('echo')).status).toBe('completed');
    expect(lastToolMessage()).toContain('Echo: over sse');
    expect(ctx.mcp.status()[0]).toMatchObject({ name: 'old', transport: 'sse', state: 'ready' });
  });
});
