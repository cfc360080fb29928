// A mentioned MCP resource stays live: Keel subscribes where the server offers it, and when the
// server says it changed, the next message carries its new text (once, until it changes again).
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

const notes = join(process.cwd(), 'test/fixtures/mcp/noteServer.mjs');
let model: ScriptedServer;
let dir: string;
let ctx: Context | undefined;

beforeAll(async () => {
  model = await startScriptedServer();
});
afterAll(() => model.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-mcp-sub-'));
  mkdirSync(join(dir, 'ws'));
  mkdirSync(join(dir, 'home'));
});
afterEach(async () => {
  await ctx?.destroy();
  ctx = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const lastUser = (i: number) => JSON.stringify(model.requests[i]!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1));

describe('a mentioned MCP resource that changes', () => {
  it('reaches the model with the next message, once, after the server says it changed', async () => {
    model.load({
      turns: [
        reply.tool('mcp__notes__edit_note', { text: 'The note says: version two.' }),
        { ...reply.text('edited'), match: { lastToolResultIncludes: 'edited (subscribed)' } },
        reply.text('It says version two.'),
        reply.text('Nothing new.'),
      ],
    });
    ctx = await Context.create({
      folders: [{ path: join(dir, 'ws') }],
      host: createFsHost(),
      env: { KEEL_HOME: join(dir, 'home'), PATH: process.env.PATH },
      overrides: [{ model: 'local/scripted', providers: { local: { baseURL: model.baseURL } } }],
      mcpServers: parseMcpConfig({ servers: { notes: { type: 'stdio', command: process.execPath, args: [notes] } } }, 'cli', { workspaceFolder: join(dir, 'ws'), env: {} }, '--mcp-config'),
    });
    await ctx.mcp.listsSettled();
    const p = new Project(ctx, ctx.sessions.create());
    const approve = { onToolApprove: async () => ({ approved: true }) };
    const first = await p.send('edit the note', { ...approve, mentions: [{ kind: 'resource', server: 'notes', uri: 'memo://note' }] });
    expect(first.status).toBe('completed');
    expect(lastUser(0)).toContain('version one');

    expect((await p.send('what does it say now?', approve)).status).toBe('completed');
    const second = lastUser(2);
    expect(second).toContain('The note says: version two.');
    expect(second).toContain('@notes:memo://note');

    // Unchanged since: not sent again.
    expect((await p.send('anything new?', approve)).status).toBe('completed');
    expect(lastUser(3)).not.toContain('version two');
  });
});
