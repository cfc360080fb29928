// How a script advances (match, repeat, optional, fallback) and what the server records.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { partsOfType, runStream, textDeltas } from './sdkHarness.ts';

let server: ScriptedServer;

beforeEach(async () => {
  server = await startScriptedServer();
});

afterEach(async () => {
  await server.close();
});

async function chat(text: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'scripted-model', messages: [{ role: 'user', content: text }], ...extra }),
  });
}

async function chatText(text: string): Promise<string> {
  const response = await chat(text);
  const body = (await response.json()) as { choices?: { message: { content: string } }[]; error?: { message: string } };
  return body.choices?.[0].message.content ?? `error ${response.status}: ${body.error?.message}`;
}

describe('request log', () => {
  it('records the messages, tools and stream options the SDK sent', async () => {
    server.load({ turns: [reply.text('ok')] });
    await runStream({ server, system: 'You are Keel.', prompt: 'List the files', apiKey: 'sk-test' });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ index: 1, method: 'POST', path: '/v1/chat/completions' });
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body.model).toBe('scripted-model');
    expect(request.body.stream).toBe(true);
    expect(request.body.stream_options).toEqual({ include_usage: true });
    expect(request.body.messages).toEqual([
      { role: 'system', content: 'You are Keel.' },
      { role: 'user', content: 'List the files' },
    ]);
    expect(request.body.tools?.map((tool) => tool.function?.name)).toEqual(['read', 'ls']);
    expect(request.body.tools?.[0].function?.parameters).toMatchObject({ required: ['file_path'] });
  });

  it('matches a follow-up turn on the tool result the SDK sends back', async () => {
    server.load({
      turns: [
        { match: { systemIncludes: 'Keel', toolsInclude: ['read'] }, toolCalls: [{ id: 'call_1', name: 'read', arguments: { file_path: 'a.ts' } }] },
        { match: { lastToolResultIncludes: 'export const a = 1' }, text: 'a.ts exports a.' },
      ],
    });
    const first = await runStream({ server, system: 'You are Keel.', prompt: 'What does a.ts export?' });
    const call = partsOfType(first.parts, 'tool-call')[0];
    const messages: ModelMessage[] = [
      { role: 'user', content: 'What does a.ts export?' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: 'read', output: { type: 'text', value: 'export const a = 1;' } }],
      },
    ];
    const second = await runStream({ server, system: 'You are Keel.', messages });
    expect(textDeltas(second.parts).join('')).toBe('a.ts exports a.');
    expect(server.requests[1].body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(server.pendingTurns()).toBe(0);
  });
});

describe('script advance', () => {
  it('consumes a repeated turn N times before moving on', async () => {
    server.load({ turns: [{ ...reply.status(500), repeat: 2 }, reply.text('recovered')] });
    expect((await chat('a')).status).toBe(500);
    expect((await chat('a')).status).toBe(500);
    expect(await chatText('a')).toBe('recovered');
  });

  it('skips an optional turn whose match fails', async () => {
    server.load({
      turns: [
        { optional: true, match: { lastUserIncludes: 'compact' }, text: 'summary' },
        { text: 'normal answer' },
      ],
    });
    expect(await chatText('hello')).toBe('normal answer');
    expect(server.pendingTurns()).toBe(0);
  });

  it('uses an optional turn when it matches', async () => {
    server.load({
      turns: [
        { optional: true, match: { lastUserIncludes: 'compact' }, text: 'summary' },
        { text: 'normal answer' },
      ],
    });
    expect(await chatText('please compact')).toBe('summary');
    expect(await chatText('hello')).toBe('normal answer');
  });

  it('answers with the fallback once the turns are used up', async () => {
    server.load({ turns: [reply.text('first')], fallback: reply.text('again') });
    expect(await chatText('1')).toBe('first');
    expect(await chatText('2')).toBe('again');
    expect(await chatText('3')).toBe('again');
  });

  it('counts only required turns as pending', async () => {
    server.load({ turns: [reply.text('one'), { ...reply.text('maybe'), optional: true }, reply.text('two')] });
    expect(server.pendingTurns()).toBe(2);
    await chatText('x');
    expect(server.pendingTurns()).toBe(1);
  });

  it('rewinds the script and clears the log on reset', async () => {
    server.load({ turns: [reply.text('first'), reply.text('second')] });
    expect(await chatText('x')).toBe('first');
    server.reset();
    expect(server.requests).toEqual([]);
    expect(await chatText('y')).toBe('first');
  });

  it('rejects an invalid scenario on load', () => {
    expect(() => server.load({ turns: [{ text: 'x', finishReason: 'done' as 'stop' }] })).toThrow(/turns\[0\]\.finishReason/);
  });
});

describe('HTTP surface', () => {
  it('replaces the script over POST /__scenario and reports requests over GET /__requests', async () => {
    const loaded = await fetch(`${server.url}/__scenario`, {
      method: 'POST',
      body: JSON.stringify({ turns: [{ text: 'from http' }, { text: 'never reached' }] }),
    });
    expect(loaded.status).toBe(200);
    expect(await chatText('over http')).toBe('from http');
    const log = (await (await fetch(`${server.url}/__requests`)).json()) as {
      requests: { index: number; body: { messages: unknown[] } }[];
      pendingTurns: number;
    };
    expect(log.requests).toHaveLength(1);
    expect(log.requests[0].body.messages).toEqual([{ role: 'user', content: 'over http' }]);
    expect(log.pendingTurns).toBe(1);

    expect((await fetch(`${server.url}/__reset`, { method: 'POST' })).status).toBe(200);
    expect(server.requests).toEqual([]);
    expect(await chatText('again')).toBe('from http');
  });

  it('answers 400 with the problem for an invalid scenario posted over HTTP', async () => {
    const response = await fetch(`${server.url}/__scenario`, { method: 'POST', body: JSON.stringify({ turns: [{ txt: 'typo' }] }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('turns[0] has unknown key "txt"');
  });

  it('lists the scenario models, behind the API key when one is set', async () => {
    server.load({ models: ['m-small', 'm-large'], apiKey: 'sk-models', turns: [] });
    expect((await fetch(`${server.baseURL}/models`)).status).toBe(401);
    const response = await fetch(`${server.baseURL}/models`, { headers: { authorization: 'Bearer sk-models' } });
    const body = (await response.json()) as { object: string; data: { id: string; object: string }[] };
    expect(body.object).toBe('list');
    expect(body.data.map((model) => [model.id, model.object])).toEqual([['m-small', 'model'], ['m-large', 'model']]);
  });

  it('lists the default model id when the scenario names none', async () => {
    const body = (await (await fetch(`${server.baseURL}/models`)).json()) as { data: { id: string }[] };
    expect(body.data.map((model) => model.id)).toEqual(['scripted-model']);
  });

  it('answers 404 with a hint when the base URL lacks /v1', async () => {
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('is the base URL missing /v1?');
  });

  it('answers 400 to a body that is not JSON or has no messages', async () => {
    const notJson = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: 'nope' });
    expect(notJson.status).toBe(400);
    const noMessages = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{"model":"x"}' });
    expect(noMessages.status).toBe(400);
    expect(((await noMessages.json()) as { error: { message: string } }).error.message).toContain("'messages' array");
  });

  it('sends the usage chunk only when the request asks for it', async () => {
    server.load({ turns: [reply.text('a'), reply.text('b')] });
    const without = await (await chat('x', { stream: true })).text();
    const withUsage = await (await chat('x', { stream: true, stream_options: { include_usage: true } })).text();
    expect(without).not.toContain('"usage"');
    expect(without.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const events = withUsage.split('\n\n').filter((event) => event.startsWith('data: '));
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)?.slice(6) ?? '{}')).toMatchObject({ choices: [], usage: { completion_tokens: 1 } });
  });
});

describe('gates', () => {
  it('holds a gated answer until the test opens the gate, while later turns answer meanwhile', async () => {
    server.load({ turns: [reply.text('held', { gate: 'end' }), reply.text('free')] });
    let heldDone = false;
    const held = chatText('first').then((text) => {
      heldDone = true;
      return text;
    });
    await expect.poll(() => server.requests.length).toBe(1);
    expect(await chatText('second')).toBe('free');
    expect(heldDone).toBe(false);
    server.open('end');
    expect(await held).toBe('held');
  });
});
