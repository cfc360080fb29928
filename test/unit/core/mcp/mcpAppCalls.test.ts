import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Project } from '../../../../src/core/project';
import type { ProjectEvent } from '../../../../src/core/projectTypes';
import type { ApprovalRequest } from '../../../../src/core/tools/tool';
import { reply } from '../../../fixtures/scriptedServer/replyBuilder.ts';
import { scriptedCore } from '../scriptedCore';

const board = join(import.meta.dirname, '../../../fixtures/mcp/appServer.mjs');
const core = scriptedCore('keel-mcp-app-calls-');

async function open(): Promise<{ project: Project; calls: () => string }> {
  // In the workspace: a local server may run in the OS sandbox, which writes only there.
  const callsFile = join(core.ws, 'calls.jsonl');
  const ctx = await core.context({ servers: { board: { type: 'stdio', command: process.execPath, args: [board, callsFile] } } });
  return { project: new Project(ctx, ctx.sessions.create()), calls: () => readFileSync(callsFile, 'utf8') };
}

const signal = new AbortController().signal;

describe("an MCP App's tool calls", () => {
  it("the model's call of an app tool names the app on its result event; the model gets the text", async () => {
    core.model.load({ turns: [reply.tool('mcp__board__show_board', { title: 'Q3' }), reply.text('shown')] });
    const { project } = await open();
    const events: ProjectEvent[] = [];
    await project.send('show it', { onEvent: (e) => events.push(e) });
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ output: expect.stringContaining('Board "Q3" is shown.'), app: { server: 'board', tool: 'show_board', appUri: 'ui://board/app.html', result: { structuredContent: { title: 'Q3' } } } });
    expect(JSON.stringify(core.model.requests.at(-1)?.body.messages.at(-1))).toContain('Board \\"Q3\\" is shown.');
  });

  it("goes through the person's approval like the model's call, and hands back the server's answer", async () => {
    const { project, calls } = await open();
    const asked: ApprovalRequest[] = [];
    const call = (approved: boolean) =>
      project.appToolCall(
        { toolCallId: `app-${asked.length}`, server: 'board', tool: 'add_note', arguments: { text: 'hello' } },
        { mode: 'act', signal, onToolApprove: async (r) => (asked.push(r), { approved }), emit: () => undefined },
      );
    const declined = await call(false);
    expect(declined.answer).toBeUndefined();
    expect(declined.result).toMatchObject({ isError: true, output: expect.stringMatching(/declined/) });
    const done = await call(true);
    expect(asked.map((r) => [r.tool, r.category])).toEqual([
      ['mcp__board__add_note', 'network'],
      ['mcp__board__add_note', 'network'],
    ]);
    expect(asked[0]!.summary).toMatch(/^MCP board: add_note .*\(asked by the app on its card\)$/);
    expect(done.answer).toEqual({ server: 'board', tool: 'add_note', result: { content: [{ type: 'text', text: 'Added: hello' }] } });
    expect(calls().trim().split('\n')).toEqual(['{"tool":"add_note","args":{"text":"hello"}}']);
  });

  it('a tool only for apps is not offered to the model and runs for the app; one only for the model does not run for the app', async () => {
    const { project, calls } = await open();
    await project.ctx.mcp.tools();
    const offered = project.ctx.mcp.readyTools().map((t) => t.name);
    expect(offered).toContain('mcp__board__summarize');
    expect(offered).not.toContain('mcp__board__refresh');
    const opts = { mode: 'act' as const, signal, onToolApprove: async () => ({ approved: true }), emit: () => undefined };
    const refresh = await project.appToolCall({ toolCallId: 'r1', server: 'board', tool: 'refresh', arguments: {} }, opts);
    expect(refresh.answer?.result).toEqual({ content: [{ type: 'text', text: 'refreshed' }] });
    const summarize = await project.appToolCall({ toolCallId: 's1', server: 'board', tool: 'summarize', arguments: {} }, opts);
    expect(summarize.answer).toBeUndefined();
    expect(summarize.result.isError).toBe(true);
    expect(calls().trim().split('\n')).toEqual(['{"tool":"refresh","args":{}}']);
  });

  it('in plan mode only read-only tools run; tools of another server or unknown ones do not', async () => {
    const { project } = await open();
    const approve = async () => ({ approved: true });
    const plan = await project.appToolCall({ toolCallId: 'a1', server: 'board', tool: 'add_note', arguments: { text: 'x' } }, { mode: 'plan', signal, onToolApprove: approve, emit: () => undefined });
    expect(plan.answer).toBeUndefined();
    expect(plan.result.output).toMatch(/Plan mode is read-only/);
    const read = await project.appToolCall({ toolCallId: 'a2', server: 'board', tool: 'client_ui', arguments: {} }, { mode: 'plan', signal, onToolApprove: approve, emit: () => undefined });
    expect(read.answer?.tool).toBe('client_ui');
    const other = await project.appToolCall({ toolCallId: 'a3', server: 'elsewhere', tool: 'add_note', arguments: {} }, { mode: 'act', signal, onToolApprove: approve, emit: () => undefined });
    expect(other.answer).toBeUndefined();
    expect(other.result.isError).toBe(true);
  });
});
