// A call to a tool that is not built in (MCP, plugin) is drawn by that tool. A reopened
// conversation may not have the tool any more (the plugin gone, the server stopped): its card
// comes from the log, so it looks as it did live.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { entriesToUiMessages } from '../../../src/chat/conversations/uiMessages';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import type { KeelPlugin } from '../../../src/core/plugins/pluginTypes';
import { Project } from '../../../src/core/project';
import type { ProjectEvent } from '../../../src/core/projectTypes';
import { defineTool } from '../../../src/core/tools/tool';
import type { ToolCallPart } from '../../../src/protocol/uiMessage';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

it("shows a plugin tool's card after a reopen as it was drawn live, though the plugin is gone", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-displays-'));
  const [ws, home] = [join(dir, 'ws'), join(dir, 'home')];
  mkdirSync(ws);
  mkdirSync(home);
  try {
    const plugin: KeelPlugin = {
      name: 'tickets',
      tool: () => [
        defineTool({ name: 'ticket_lookup', description: 'looks a ticket up', category: 'read', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => ({ output: `${id}: open` }) }),
      ],
    };
    server.load({ turns: [reply.tool('ticket_lookup', { id: 'KEEL-7' }), reply.text('It is open.')] });
    const options = { folders: [{ path: ws }], host: createFsHost(), env: { KEEL_HOME: home }, overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } } }] };
    const ctx = await Context.create({ ...options, plugins: [plugin] });
    const project = new Project(ctx, ctx.sessions.create());
    const events: ProjectEvent[] = [];
    await project.send('look up KEEL-7', { onEvent: (e) => events.push(e) });
    const live = events.find((e) => e.type === 'tool_use');
    expect(live?.type === 'tool_use' && live.display).toMatchObject({ details: { kind: 'keyValue', entries: [{ key: 'id', value: 'KEEL-7' }] } });
    const id = project.session.id;
    project.session.close();

    // Reopened where the plugin is not installed: the card is the one the log kept.
    const without = await Context.create(options);
    const session = without.sessions.open(id, { readOnly: true });
    const calls = entriesToUiMessages(session.entries()).flatMap((m) => m.parts.filter((p): p is ToolCallPart => p.type === 'toolCall'));
    session.close();
    expect(calls).toHaveLength(1);
    expect(live?.type === 'tool_use' ? live.display : undefined).toEqual(calls[0].display);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
