// A mentioned MCP resource stays live: Keel subscribes where the server offers it, and when the
// server says it changed, the next message carries its new text (once, until it changes again).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Project } from '../../../../src/core/project';
import { reply } from '../../../fixtures/scriptedServer/replyBuilder.ts';
import { scriptedCore } from '../scriptedCore';

const notes = join(process.cwd(), 'test/fixtures/mcp/noteServer.mjs');
const core = scriptedCore('keel-mcp-sub-');

const lastUser = (i: number) => JSON.stringify(core.model.requests[i]!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1));

describe('a mentioned MCP resource that changes', () => {
  it('reaches the model with the next message, once, after the server says it changed', async () => {
    core.model.load({
      turns: [
        reply.tool('mcp__notes__edit_note', { text: 'The note says: version two.' }),
        { ...reply.text('edited'), match: { lastToolResultIncludes: 'edited (subscribed)' } },
        reply.text('It says version two.'),
        reply.text('Nothing new.'),
      ],
    });
    const ctx = await core.context({ servers: { notes: { type: 'stdio', command: process.execPath, args: [notes] } } });
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
