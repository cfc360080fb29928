import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Project } from '../../../../src/core/project';
import { reply } from '../../../fixtures/scriptedServer/replyBuilder.ts';
import { scriptedCore } from '../scriptedCore';

const growing = join(process.cwd(), 'test/fixtures/mcp/growingServer.mjs');
const core = scriptedCore('keel-mcp-grow-');

const toolNames = (i: number) => ((core.model.requests[i]?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe('an MCP tool added mid-run (tools/list_changed)', () => {
  it('is callable in the same request, appended after the tools already offered', async () => {
    core.model.load({ turns: [reply.tool('mcp__growing__grow', {}), reply.tool('mcp__growing__added', { word: 'hi' }), reply.text('done')] });
    const ctx = await core.context({ servers: { growing: { type: 'stdio', command: process.execPath, args: [growing] } } });
    const p = new Project(ctx, ctx.sessions.create());
    const result = await p.send('grow it', { onToolApprove: async () => ({ approved: true }) });
    expect(result.status).toBe('completed');
    const first = toolNames(0);
    expect(first).not.toContain('mcp__growing__added');
    const second = toolNames(1);
    // The earlier tools keep their places; the new one comes last.
    expect(second.slice(0, first.length)).toEqual(first);
    expect(second.at(-1)).toBe('mcp__growing__added');
    expect(JSON.stringify(core.model.requests[2]!.body.messages.at(-1))).toContain('added says hi');
  });
});
