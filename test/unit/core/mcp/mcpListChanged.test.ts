import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../../src/core/context';
import { createFsHost } from '../../../../src/core/fsHost';
import { parseMcpConfig } from '../../../../src/core/mcp/mcpConfig';
import { Project } from '../../../../src/core/project';
import { reply } from '../../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';

const growing = join(process.cwd(), 'test/fixtures/mcp/growingServer.mjs');
let model: ScriptedServer;
let dir: string;
let ctx: Context | undefined;

beforeAll(async () => {
  model = await startScriptedServer();
});
afterAll(() => model.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-mcp-grow-'));
  mkdirSync(join(dir, 'ws'));
  mkdirSync(join(dir, 'home'));
});
afterEach(async () => {
  await ctx?.destroy();
  ctx = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const toolNames = (i: number) => ((model.requests[i]?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe('an MCP tool added mid-run (tools/list_changed)', () => {
  it('is callable in the same request, appended after the tools already offered', async () => {
    model.load({ turns: [reply.tool('mcp__growing__grow', {}), reply.tool('mcp__growing__added', { word: 'hi' }), reply.text('done')] });
    ctx = await Context.create({
      folders: [{ path: join(dir, 'ws') }],
      host: createFsHost(),
      env: { KEEL_HOME: join(dir, 'home'), PATH: process.env.PATH },
      overrides: [{ model: 'local/scripted', providers: { local: { baseURL: model.baseURL } } }],
      mcpServers: parseMcpConfig({ servers: { growing: { type: 'stdio', command: process.execPath, args: [growing] } } }, 'cli', { workspaceFolder: join(dir, 'ws'), env: {} }, '--mcp-config'),
    });
    const p = new Project(ctx, ctx.sessions.create());
    const result = await p.send('grow it', { onToolApprove: async () => ({ approved: true }) });
    expect(result.status).toBe('completed');
    const first = toolNames(0);
    expect(first).not.toContain('mcp__growing__added');
    const second = toolNames(1);
    // The earlier tools keep their places; the new one comes last.
    expect(second.slice(0, first.length)).toEqual(first);
    expect(second.at(-1)).toBe('mcp__growing__added');
    expect(JSON.stringify(model.requests[2]!.body.messages.at(-1))).toContain('added says hi');
  });
});
