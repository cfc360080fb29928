// A named pause in a reply stream: the test acts while the client holds part of the reply.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

describe('holdAt', () => {
  it('sends the events before the pause, sends nothing more until released, then finishes the reply', async () => {
    server.load({ turns: [reply.tool('bash', { command: 'ls' }, { holdAt: 'call' })] });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'go' }] }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    await server.reached('call');
    // Everything before the pause: the role chunk and the call's first delta, which names it.
    while ((text.match(/^data: /gm) ?? []).length < 2) text += decoder.decode((await reader.read()).value);
    expect(text).toContain('"name":"bash"');
    expect(text).not.toContain('finish_reason":"tool_calls"');
    server.release('call');
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += decoder.decode(part.value);
    expect(text).toContain('finish_reason":"tool_calls"');
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
  });

  it('is refused without a name', () => {
    expect(() => server.load({ turns: [reply.text('x', { holdAfterChunks: 3 })] })).toThrow(/holdAfterChunks needs holdAt/);
  });
});
