import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import type { ToolContext, ToolProgress } from '../../../../src/core/tools/tool';

const growing = join(process.cwd(), 'test/fixtures/mcp/growingServer.mjs');
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

describe('MCP progress notifications', () => {
  it('reach the running tool as percent and message, in order, before its result', async () => {
    manager = new McpManager({ workspaceRoot: process.cwd(), env: { PATH: process.env.PATH }, log: () => undefined, trusted: true });
    manager.setServers([{ name: 'growing', origin: 'user', type: 'stdio', command: process.execPath, args: [growing], env: {} }]);
    const slow = (await manager.tools()).find((t) => t.name === 'mcp__growing__slow')!;
    const seen: ToolProgress[] = [];
    const ctx = { signal: new AbortController().signal, toolCallId: 't', onProgress: (p: ToolProgress) => void seen.push(p) } as unknown as ToolContext;
    const result = await slow.execute({}, ctx);
    expect(result.output).toBe('slow done');
    expect(seen).toEqual([
      { percent: 50, message: 'half way' },
      { percent: 100, message: 'all done' },
    ]);
  });
});
