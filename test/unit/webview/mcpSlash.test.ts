import { describe, expect, it } from 'vitest';
import type { McpPromptView } from '../../../src/protocol/mcpStatus';
import { mcpCompletions, parseMcpSlash } from '../../../webview/components/composer/mcpSlash';

const prompts: McpPromptView[] = [
  { command: 'mcp.everything.simple-prompt', server: 'everything', name: 'simple-prompt', description: 'A prompt with no arguments', arguments: [] },
  { command: 'mcp.everything.args-prompt', server: 'everything', name: 'args-prompt', arguments: [{ name: 'city', required: true }, { name: 'state', required: false }] },
  { command: 'mcp.docs.summarize', server: 'docs', name: 'summarize', arguments: [{ name: 'topic', required: true }] },
];

describe('MCP prompts as slash commands', () => {
  it('is not an MCP command unless it starts with /mcp.', () => {
    expect(parseMcpSlash('/plan fix it', prompts)).toBeNull();
    expect(parseMcpSlash('hello /mcp.docs.summarize', prompts)).toBeNull();
  });

  it('reads key=value arguments, quoted values included', () => {
    expect(parseMcpSlash('/mcp.everything.args-prompt city=Lisbon state="Lisboa district"', prompts)).toEqual({
      kind: 'prompt',
      prompt: prompts[1],
      args: { city: 'Lisbon', state: 'Lisboa district' },
    });
  });

  it('a prompt with one argument takes the rest of the line', () => {
    expect(parseMcpSlash('/mcp.docs.summarize the release notes, briefly', prompts)).toMatchObject({ kind: 'prompt', args: { topic: 'the release notes, briefly' } });
    expect(parseMcpSlash('/mcp.docs.summarize topic=x', prompts)).toMatchObject({ kind: 'prompt', args: { topic: 'x' } });
  });

  it('says what is wrong: unknown prompt, missing or unknown arguments', () => {
    expect(parseMcpSlash('/mcp.nope.x', prompts)).toEqual({ kind: 'problem', message: expect.stringMatching(/There is no MCP prompt \/mcp.nope.x/) });
    expect(parseMcpSlash('/mcp.everything.args-prompt', prompts)).toEqual({ kind: 'problem', message: expect.stringMatching(/needs city: \/mcp.everything.args-prompt city=… \[state=…\]/) });
    expect(parseMcpSlash('/mcp.everything.args-prompt town=x', prompts)).toEqual({ kind: 'problem', message: expect.stringMatching(/has no argument town/) });
  });

  it('completes prompt commands while the command word is typed', () => {
    expect(mcpCompletions('/mcp.ev', prompts).map((c) => c.name)).toEqual(['mcp.everything.simple-prompt', 'mcp.everything.args-prompt']);
    expect(mcpCompletions('/m', prompts)).toHaveLength(3);
    expect(mcpCompletions('/mcp.docs.summarize x', prompts)).toEqual([]);
    expect(mcpCompletions('/mcp.everything.args', prompts)[0]).toMatchObject({ argument: 'city=… [state=…]' });
  });
});
