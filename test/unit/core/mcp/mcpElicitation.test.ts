// A server's questions (elicitation), as the person answers them in a terminal or the CLI's
// policy does: the answer the server gets, defaults filled in by the SDK, and nothing asked at
// all when nobody can answer.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import type { Elicitor } from '../../../../src/core/mcp/mcpElicitation';
import { defaultsAnswer, formFields, readFieldValue } from '../../../../src/core/mcp/mcpElicitation';
import type { ToolContext } from '../../../../src/core/tools/tool';
import { cliElicitor } from '../../../../src/cli/cliQuestions';

const asking = join(import.meta.dirname, '../../../fixtures/mcp/askingServer.mjs');
let m: McpManager | undefined;
afterEach(async () => {
  await m?.dispose();
  m = undefined;
});

function start(elicit?: Elicitor, toolTimeoutMs?: number): McpManager {
  m = new McpManager({ workspaceRoot: process.cwd(), roots: [process.cwd()], env: { PATH: process.env.PATH }, log: () => undefined, trusted: true, version: '1', ...(elicit ? { elicit } : {}), ...(toolTimeoutMs ? { toolTimeoutMs } : {}) });
  m.setServers([{ name: 'asking', origin: 'user', type: 'stdio', command: process.execPath, args: [asking], env: {} }]);
  return m;
}

async function call(manager: McpManager, tool: string): Promise<string> {
  const t = (await manager.tools()).find((x) => x.name === `mcp__asking__${tool}`);
  if (!t) throw new Error(`no tool ${tool}`);
  const result = await t.execute({}, { signal: new AbortController().signal, toolCallId: 't1' } as ToolContext);
  return result.output as string;
}

/** A terminal whose person types `answers` in order. */
function typist(answers: string[]) {
  const asked: string[] = [];
  const written: string[] = [];
  return {
    asked,
    written,
    terminal: {
      write: (text: string) => void written.push(text),
      ask: (prompt: string) => {
        asked.push(prompt);
        return Promise.resolve(answers.shift());
      },
    },
  };
}

describe("answering an MCP server's questions", () => {
  it('a person at a terminal fills the form; fields left empty get their defaults, a wrong value is asked again', async () => {
    const person = typist(['', 'Lisbon', '', 'yes', 'suite', 'Double room']);
    const notes: string[] = [];
    const manager = start(cliElicitor('ask', person.terminal, (line) => notes.push(line)));
    const answer = JSON.parse(await call(manager, 'book'));
    expect(answer).toEqual({ action: 'accept', content: { city: 'Lisbon', nights: 2, breakfast: true, room: 'double' } });
    expect(notes[0]).toBe('MCP server "asking" asks: Where do you want to stay?');
    expect(person.asked.join('\n')).toMatch(/Nights \[integer, default 2\]/);
    expect(person.written.join('')).toContain('Room must be one of single, double');
  });

  it('--mcp-elicitation decline says no, and defaults declines a form with a required field that has none', async () => {
    const declined = start(cliElicitor('decline', undefined, () => undefined));
    expect(JSON.parse(await call(declined, 'book'))).toEqual({ action: 'decline' });
    await declined.dispose();
    const defaults = start(cliElicitor('defaults', undefined, () => undefined));
    expect(JSON.parse(await call(defaults, 'book'))).toEqual({ action: 'decline' });
    expect(JSON.parse(await call(defaults, 'pay'))).toEqual({ action: 'decline' });
  });

  it('a page to open is shown with its address; the person accepts only after opening it', async () => {
    const person = typist(['accept']);
    const manager = start(cliElicitor('ask', person.terminal, () => undefined));
    expect(JSON.parse(await call(manager, 'pay'))).toEqual({ action: 'accept' });
    expect(person.written.join('')).toContain('https://pay.example/confirm?id=7');
  });

  it("the call's timeout waits while the person answers: a slow answer still reaches the server", async () => {
    // The tool timeout is 300 ms; the person takes 900 ms.
    const slow: Elicitor = (_server, _question, _signal) => new Promise((resolve) => setTimeout(() => resolve({ action: 'accept', content: { city: 'Porto', room: 'single' } }), 900));
    const manager = start(slow, 300);
    expect(JSON.parse(await call(manager, 'book'))).toEqual({ action: 'accept', content: { city: 'Porto', nights: 2, breakfast: false, room: 'single' } });
  });

  it('without anyone to answer, Keel declares no elicitation and the server cannot ask', async () => {
    const manager = start();
    expect(await call(manager, 'book')).toMatch(/elicitation|does not support/i);
  });
});

describe('reading what a person typed for a field', () => {
  const fields = formFields({
    mode: 'form',
    message: 'm',
    requestedSchema: {
      type: 'object',
      properties: { n: { type: 'integer' }, ok: { type: 'boolean', default: true }, tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
      required: ['n'],
    },
  });

  it('takes numbers, yes/no and lists of options, and says what is wrong otherwise', () => {
    expect(readFieldValue(fields[0]!, '3')).toEqual({ value: 3 });
    expect(readFieldValue(fields[0]!, '3.5')).toEqual({ problem: 'n must be a whole number' });
    expect(readFieldValue(fields[1]!, 'no')).toEqual({ value: false });
    expect(readFieldValue(fields[2]!, 'a, b')).toEqual({ value: ['a', 'b'] });
    expect(readFieldValue(fields[2]!, 'c')).toEqual({ problem: 'c is not one of a, b' });
  });

  it("keeps the server's bounds and forms on each field", () => {
    const bounded = formFields({
      mode: 'form',
      message: 'm',
      requestedSchema: {
        type: 'object',
        properties: { code: { type: 'string', minLength: 3, maxLength: 5 }, mail: { type: 'string', format: 'email' }, guests: { type: 'integer', minimum: 1, maximum: 4 } },
      },
    });
    expect(bounded).toEqual([
      { name: 'code', label: 'code', kind: 'text', required: false, min: 3, max: 5 },
      { name: 'mail', label: 'mail', kind: 'text', required: false, format: 'email' },
      { name: 'guests', label: 'guests', kind: 'integer', required: false, min: 1, max: 4 },
    ]);
  });

  it('accepts with the defaults only when every required field has one', () => {
    expect(defaultsAnswer({ mode: 'form', params: { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: { x: { type: 'string', default: 'y' } }, required: ['x'] } } })).toEqual({ action: 'accept', content: {} });
  });
});
