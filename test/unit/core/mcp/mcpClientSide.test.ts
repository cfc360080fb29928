import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import { buildSystemPrompt, mcpInstructionsCap } from '../../../../src/core/systemPrompt';
import type { ToolContext } from '../../../../src/core/tools/tool';

const asking = join(import.meta.dirname, '../../../fixtures/mcp/askingServer.mjs');
let dir: string;
let m: McpManager | undefined;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-mcp-roots-')));
  mkdirSync(join(dir, 'app'));
  mkdirSync(join(dir, 'lib'));
});
afterEach(async () => {
  await m?.dispose();
  m = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function start(roots: string[], toolTimeoutMs?: number): McpManager {
  m = new McpManager({ workspaceRoot: roots[0], roots, toolTimeoutMs, env: { PATH: process.env.PATH }, log: () => undefined, trusted: true, version: '1.2.3' });
  m.setServers([{ name: 'asking', origin: 'user', type: 'stdio', command: process.execPath, args: [asking], env: {} }]);
  return m;
}

async function call(manager: McpManager, tool: string, input: Record<string, unknown> = {}): Promise<string> {
  const t = (await manager.tools()).find((x) => x.name === `mcp__asking__${tool}`);
  if (!t) throw new Error(`no tool ${tool}`);
  const result = await t.execute(input, { signal: new AbortController().signal, toolCallId: 't1' } as ToolContext);
  return result.output as string;
}

describe('what Keel answers an MCP server', () => {
  it('the workspace folders are its roots as file:// URIs, and a change is announced', async () => {
    const manager = start([join(dir, 'app'), join(dir, 'lib')]);
    expect(JSON.parse(await call(manager, 'roots'))).toEqual({
      roots: [
        { uri: pathToFileURL(join(dir, 'app')).href, name: 'app' },
        { uri: pathToFileURL(join(dir, 'lib')).href, name: 'lib' },
      ],
      rootsChanges: 0,
    });
    manager.setRoots([join(dir, 'lib')]);
    const after = JSON.parse(await call(manager, 'roots')) as { roots: unknown[]; rootsChanges: number };
    expect(after).toEqual({ roots: [{ uri: pathToFileURL(join(dir, 'lib')).href, name: 'lib' }], rootsChanges: 1 });
  });

  it("Keel asks for info logs, and the server's log messages go into that server's log", async () => {
    const manager = start([dir]);
    expect(await call(manager, 'log', { text: 'disk almost full' })).toBe('logged');
    expect(await call(manager, 'logLevel')).toBe('info');
    expect(manager.log('asking')).toContain('[warning] asking: disk almost full');
  });

  it("the server's instructions are offered for the system prompt, named by server", async () => {
    const manager = start([dir]);
    await manager.tools();
    expect(manager.instructions()).toEqual([{ server: 'asking', text: 'Call roots before anything else.' }]);
    const prompt = buildSystemPrompt({ mode: 'act', mcpInstructions: manager.instructions() });
    expect(prompt).toContain('### asking\nCall roots before anything else.');
    const long = buildSystemPrompt({ mode: 'act', mcpInstructions: [{ server: 'wordy', text: 'x'.repeat(mcpInstructionsCap + 10) }] });
    expect(long).toContain(`${'x'.repeat(mcpInstructionsCap)}\n[cut: 10 more characters]`);
  });

  it('every call carries a progress token, and progress keeps a call past the tool timeout alive', async () => {
    const manager = start([dir], 400);
    // Six steps of 100 ms: 600 ms in all, over the 400 ms timeout, but never 400 ms without progress.
    expect(await call(manager, 'slow', { steps: 6 })).toBe('done after 6 steps');
  });
});
