// Scenario validation: typos and impossible combinations fail at load time, naming the spot.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioError } from '../../fixtures/scriptedServer/scenarioParser.ts';

const scenariosDir = fileURLToPath(new URL('../../fixtures/scenarios/', import.meta.url));

function problem(value: unknown): string {
  try {
    parseScenario(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
}

describe('parseScenario', () => {
  it('accepts every kind of turn and returns the scenario unchanged', () => {
    const scenario = {
      models: ['a', 'b'],
      apiKey: 'sk-x',
      turns: [
        { label: 'l', match: { lastUserIncludes: 'u', lastToolResultIncludes: 't', systemIncludes: 's', toolsInclude: ['read'] }, text: 'hi', reasoning: 'r', chunkSize: 2, delayMs: 1 },
        { toolCalls: [{ id: 'c', name: 'read', arguments: { file_path: 'a' } }, { name: 'ls', arguments: '{bad' }], finishReason: 'tool_calls', usage: { prompt_tokens: 1, completion_tokens: 2 } },
        { text: { lorem: 10 }, tokensPerSecond: 100, repeat: 3, optional: true },
        { tokens: 5, drop: 'midStream', afterChunks: 1 },
        { text: 'x', streamError: { message: 'm', type: 't', code: 'c' } },
        { status: 429, headers: { 'retry-after': '1' }, body: 'plain' },
        { drop: 'beforeHeaders' },
        { hang: true },
      ],
      fallback: { text: 'again' },
    };
    expect(parseScenario(scenario)).toEqual(scenario);
  });

  it.each([
    [{}, 'turns must be an array'],
    [{ turns: [], extra: 1 }, 'scenario has unknown key "extra"'],
    [{ turns: [{}] }, 'turns[0] needs one of text, tokens, reasoning, toolCalls'],
    [{ turns: [{ text: 'x', finish_reason: 'stop' }] }, 'turns[0] has unknown key "finish_reason"'],
    [{ turns: [{ text: 'x', finishReason: 'done' }] }, 'turns[0].finishReason must be one of stop, length, tool_calls, content_filter (got "done")'],
    [{ turns: [{ text: 'x', tokens: 3 }] }, 'turns[0] cannot have both text and tokens'],
    [{ turns: [{ text: { words: 3 } }] }, 'turns[0].text has unknown key "words"'],
    [{ turns: [{ text: 'x', delayMs: 1, tokensPerSecond: 5 }] }, 'cannot have both delayMs and tokensPerSecond'],
    [{ turns: [{ text: 'x', afterChunks: 2 }] }, 'turns[0].afterChunks only applies with drop: "midStream" or streamError'],
    [{ turns: [{ text: 'x', drop: 'sometimes' }] }, 'turns[0].drop must be "midStream" on a reply'],
    [{ turns: [{ text: 'x', chunkSize: 0 }] }, 'turns[0].chunkSize must be an integer >= 1 (got 0)'],
    [{ turns: [{ toolCalls: [] }] }, 'turns[0].toolCalls must be a non-empty array'],
    [{ turns: [{ toolCalls: [{ name: 'read', arguments: 3 }] }] }, 'turns[0].toolCalls[0].arguments must be an object or a string'],
    [{ turns: [{ hang: false }] }, 'turns[0].hang must be true'],
    [{ turns: [{ status: 700 }] }, 'turns[0].status must be an HTTP status'],
    [{ turns: [{ status: 429, headers: { 'retry-after': 1 } }] }, 'turns[0].headers.retry-after must be a string'],
    [{ turns: [{ text: 'x', match: { lastUser: 'a' } }] }, 'turns[0].match has unknown key "lastUser"'],
    [{ turns: [{ text: 'x', repeat: 0 }] }, 'turns[0].repeat must be an integer >= 1'],
    [{ turns: [], models: [] }, 'models must be a non-empty array'],
    [{ turns: [], fallback: { hang: true, text: 'x' } }, 'fallback has unknown key "text"'],
  ])('rejects %j', (value, message) => {
    expect(problem(value)).toContain(message);
  });

  it('parses every example scenario in test/fixtures/scenarios', async () => {
    const files = (await readdir(scenariosDir)).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const json: unknown = JSON.parse(await readFile(`${scenariosDir}${file}`, 'utf8'));
      expect(() => parseScenario(json), file).not.toThrow();
    }
  });
});
