// What Keel sends to Anthropic's Messages API over a whole conversation, over real HTTP to the
// scripted server's /v1/messages: requests stay append-only across the person's messages, the
// prompt-cache breakpoints sit where Keel places them (the system prompt after the tools, the
// previous request's end, the newest message), and thinking goes back with its signature.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { thinkingSignature } from '../../fixtures/scriptedServer/messagesShapes.ts';
import { projectBench } from '../llmsContext/projectHarness';
import { fiveMessageTurns, sendFiveMessages } from './fiveMessages';
import type { ProjectBench } from '../llmsContext/projectHarness';

type Block = Record<string, unknown> & { type: string; cache_control?: unknown };
interface Sent {
  role: string;
  content: Block[];
}

let server: ScriptedServer;
let bench: ProjectBench;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => bench?.cleanup());

const body = (r: number) => server.requests[r].body as unknown as { system: Block[]; tools: Block[]; anthropicMessages: Sent[] };
/** A value's JSON without the cache marks, which move from request to request by design. */
const unmarked = (value: unknown) => JSON.stringify(value, (k, v: unknown) => (k === 'cache_control' ? undefined : v));
const marked = (blocks: Block[]) => blocks.flatMap((b, i) => (b.cache_control ? [i] : []));

describe('Anthropic Messages requests', () => {
  it('stay append-only across five messages, with cache breakpoints at the system prompt and the moving end, and thinking signed', async () => {
    bench = projectBench(server);
    bench.write('a.txt', 'alpha\n');
    const { project } = await bench.project(
      fiveMessageTurns,
      { overrides: [{ model: 'claude/scripted', providers: { claude: { preset: 'anthropic', baseURL: server.baseURL } } }] },
    );
    await sendFiveMessages(project);
    expect(server.requests).toHaveLength(9);
    expect(server.requests.every((r) => r.path === '/v1/messages')).toBe(true);

    for (let r = 0; r < server.requests.length; r++) {
      const { system, tools, anthropicMessages: messages } = body(r);
      // The system prompt's end carries a breakpoint, which caches the tools before it too.
      expect(marked(system), `request ${r + 1}: system`).toEqual([system.length - 1]);
      expect(tools.some((t) => t.cache_control), 'no separate mark on the tools').toBe(false);
      // The newest message's last block is the moving end.
      const last = messages.at(-1)!;
      expect(marked(last.content), `request ${r + 1}: the newest message`).toEqual([last.content.length - 1]);
      const marks = marked(system).length + messages.reduce((n, m) => n + marked(m.content).length, 0);
      expect(marks, 'the API allows four breakpoints').toBeLessThanOrEqual(4);
      if (r === 0) continue;
      // Append-only: this request starts with the whole previous one.
      const before = body(r - 1);
      expect(unmarked(system)).toBe(unmarked(before.system));
      expect(unmarked(tools)).toBe(unmarked(before.tools));
      const prefix = before.anthropicMessages.map(unmarked);
      expect(messages.slice(0, prefix.length).map(unmarked), `request ${r + 1} starts with request ${r}`).toEqual(prefix);
      // Where the previous request ended is marked as well, so its cache is read.
      expect(marked(messages[prefix.length - 1].content).length, `request ${r + 1}: the previous end`).toBe(1);
    }

    // The thinking of the first answer went back, signed, with the call it led to, in every later request.
    for (let r = 1; r < server.requests.length; r++) {
      const assistant = body(r).anthropicMessages[1];
      expect(assistant.role).toBe('assistant');
      expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'I should read the file first.', signature: thinkingSignature({ id: 'msg_scripted_1', created: 0, model: '' }, 0) });
      expect(assistant.content[1]).toMatchObject({ type: 'tool_use', name: 'read' });
    }
  });
});
