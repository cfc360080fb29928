import { join } from 'node:path';
import { McpManager } from '../../src/core/mcp/mcpManager';
import type { AnyTool, ToolContext } from '../../src/core/tools/tool';
import type { Bench, BenchSuite } from './benchTypes';

interface State {
  manager: McpManager;
  echo: AnyTool;
}

const faulty = join(process.cwd(), 'test/fixtures/mcp/faultyServer.mjs');
const calls = 20;

/** One stdio server already running; the row is the median time of one tool call through Keel's MCP tool. */
const roundTrip: Bench<State> = {
  name: `MCP tool call round trip (stdio server, echo; per call, ${calls} calls a run)`,
  target: '< 5 ms',
  limit: 5,
  runs: 7,
  async setup() {
    const manager = new McpManager({ workspaceRoot: process.cwd(), env: { PATH: process.env.PATH }, log: () => undefined, trusted: true });
    manager.setServers([{ name: 'faulty', origin: 'user', type: 'stdio', command: process.execPath, args: [faulty], env: {} }]);
    const echo = (await manager.tools()).find((t) => t.name === 'mcp__faulty__echo');
    if (!echo) throw new Error('the faulty server did not offer echo');
    return { manager, echo };
  },
  async run({ echo }) {
    const ctx = { signal: new AbortController().signal, toolCallId: 'bench' } as ToolContext;
    const start = performance.now();
    for (let i = 0; i < calls; i++) {
      const result = await echo.execute({ text: `call ${i}` }, ctx);
      if (result.isError) throw new Error(`echo failed: ${String(result.output)}`);
    }
    return (performance.now() - start) / calls;
  },
  async teardown({ manager }) {
    await manager.dispose();
  },
};

export const suite: BenchSuite = { name: 'mcp', benches: [roundTrip] };
