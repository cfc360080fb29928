// A server asking the person's model for a text (sampling): it runs only once the person has
// seen the request and approved it (possibly after editing it), on the configured model over
// real HTTP; a refusal reaches the server as an error, and nothing is sent to the model.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import { approvedSampler } from '../../../../src/core/mcp/mcpSampling';
import type { SamplingVerdict } from '../../../../src/core/mcp/mcpSampling';
import { leanChatModel } from '../../../../src/core/model/wire/leanModels';
import type { ToolContext } from '../../../../src/core/tools/tool';
import { startScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../../fixtures/scriptedServer/replyBuilder.ts';

const asking = join(import.meta.dirname, '../../../fixtures/mcp/askingServer.mjs');
let server: ScriptedServer;
let m: McpManager | undefined;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await m?.dispose();
  m = undefined;
});

function start(verdict: SamplingVerdict, seen: string[], counted: number[], opts: { toolTimeoutMs?: number; approveMs?: number } = {}): McpManager {
  const model = { id: 'scripted/scripted-model', model: leanChatModel('scripted', 'scripted-model', 'compatible', { baseURL: server.baseURL, apiKey: 'k' }) };
  const sample = approvedSampler(
    async (name, request, modelId) => {
      seen.push(`${name} → ${modelId}\n${request}`);
      if (opts.approveMs) await new Promise((resolve) => setTimeout(resolve, opts.approveMs));
      return verdict;
    },
    () => model,
    (_server, usage) => counted.push(usage.inputTokens + usage.outputTokens),
  );
  m = new McpManager({ workspaceRoot: process.cwd(), roots: [process.cwd()], env: { PATH: process.env.PATH }, log: () => undefined, trusted: true, version: '1', sample, ...(opts.toolTimeoutMs ? { toolTimeoutMs: opts.toolTimeoutMs } : {}) });
  m.setServers([{ name: 'asking', origin: 'user', type: 'stdio', command: process.execPath, args: [asking], env: {} }]);
  return m;
}

async function summarize(manager: McpManager, text: string): Promise<{ output: string; isError?: boolean }> {
  const t = (await manager.tools()).find((x) => x.name === 'mcp__asking__summarize');
  if (!t) throw new Error('no summarize tool');
  return (await t.execute({ text }, { signal: new AbortController().signal, toolCallId: 't1' } as ToolContext)) as { output: string; isError?: boolean };
}

describe("a server's sampling request", () => {
  it('shows the request, runs it as the person edited it on their model, and counts the tokens', async () => {
    server.load({ turns: [reply.text('Short version.', { match: { lastUserIncludes: 'Summarize: the edited text' } })] });
    const seen: string[] = [];
    const counted: number[] = [];
    const result = await summarize(start({ run: true, lastUserText: 'Summarize: the edited text' }, seen, counted), 'the original text');
    expect(result.output).toBe('summary from scripted/scripted-model: Short version.');
    expect(seen[0]).toBe('asking → scripted/scripted-model\n[system]\nYou summarize.\n\n[user]\nSummarize: the original text');
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain('Summarize: the edited text');
    expect(counted).toHaveLength(1);
  });

  it("the call's timeout waits while the person reviews the request: a slow approval still runs", async () => {
    // The tool timeout is 300 ms; the person takes 900 ms.
    server.load({ turns: [reply.text('Late but fine.', { match: { lastUserIncludes: 'Summarize: slowly' } })] });
    const result = await summarize(start({ run: true }, [], [], { toolTimeoutMs: 300, approveMs: 900 }), 'slowly');
    expect(result.output).toBe('summary from scripted/scripted-model: Late but fine.');
  });

  it('refused, the server gets an error and the model is not called', async () => {
    const before = server.requests.length;
    const result = await summarize(start({ run: false }, [], []), 'anything');
    expect(result.output).toMatch(/sampling failed: .*declined/);
    expect(server.requests.length).toBe(before);
  });
});
