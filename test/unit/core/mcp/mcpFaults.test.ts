import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '../../../../src/core/mcp/mcpConfig';
import { McpManager } from '../../../../src/core/mcp/mcpManager';
import type { McpServerStatus } from '../../../../src/core/mcp/mcpTypes';
import type { AnyTool, ToolContext } from '../../../../src/core/tools/tool';

const faulty = join(import.meta.dirname, '../../../fixtures/mcp/faultyServer.mjs');
let dir: string;
let managers: McpManager[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'keel-mcp-')));
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
  managers = [];
  rmSync(dir, { recursive: true, force: true });
});

function server(over: Partial<Extract<McpServerConfig, { type: 'stdio' }>> = {}): McpServerConfig {
  return { name: 'faulty', origin: 'user', type: 'stdio', command: process.execPath, args: [faulty], env: {}, ...over };
}

function manager(configs: McpServerConfig[], over: Partial<ConstructorParameters<typeof McpManager>[0]> = {}) {
  const m = new McpManager({
    workspaceRoot: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_API_KEY: 'sk-secret', KEEL_TEST_TOKEN: 'token' },
    log: () => undefined,
    trusted: true,
    backoffMs: [50, 50, 50],
    ...over,
  });
  managers.push(m);
  m.setServers(configs);
  return m;
}

/** Resolves once a status matches; the test's own timeout bounds it. */
function until(m: McpManager, name: string, ok: (s: McpServerStatus) => boolean): Promise<McpServerStatus> {
  return new Promise((resolve) => {
    const check = () => {
      const s = m.status().find((x) => x.name === name);
      if (s && ok(s)) {
        off();
        resolve(s);
      }
    };
    const off = m.onDidChange(check);
    check();
  });
}

function ctx(signal = new AbortController().signal): ToolContext {
  return { signal, toolCallId: 't1' } as ToolContext;
}

async function tool(m: McpManager, name: string): Promise<AnyTool> {
  const t = (await m.tools()).find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

describe('MCP servers that misbehave', () => {
  it('lists tools with read for readOnlyHint and network otherwise', async () => {
    const m = manager([server()]);
    const tools = await m.tools();
    expect(Object.fromEntries(tools.map((t) => [t.name, t.category]))).toEqual({
      mcp__faulty__echo: 'read',
      mcp__faulty__crash: 'network',
      mcp__faulty__hang: 'network',
      mcp__faulty__malformed: 'network',
      mcp__faulty__env: 'read',
    });
    expect(m.status()[0]).toMatchObject({ state: 'ready', tools: 5 });
    expect((await tool(m, 'mcp__faulty__echo')).jsonSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(await (await tool(m, 'mcp__faulty__echo')).execute({ text: 'hi' }, ctx())).toEqual({ output: 'echo: hi' });
  });

  it('a crash mid-call gives an error result, then the server is restarted and works again', async () => {
    const starts = join(dir, 'starts');
    const m = manager([server({ env: { FAULTY_STARTS_FILE: starts } })]);
    const crash = await tool(m, 'mcp__faulty__crash');
    const result = await crash.execute({}, ctx());
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/MCP tool "crash" of server "faulty" failed: the server closed the connection/);
    const failed = await until(m, 'faulty', (s) => s.state === 'failed');
    expect(failed.reason).toMatch(/exited or closed the connection; restarting/);
    await until(m, 'faulty', (s) => s.state === 'ready');
    expect(await (await tool(m, 'mcp__faulty__echo')).execute({ text: 'back' }, ctx())).toEqual({ output: 'echo: back' });
    expect(readFileSync(starts, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('a call that never answers ends with an error result at the per-call timeout', async () => {
    const m = manager([server()], { toolTimeoutMs: 300 });
    const result = await (await tool(m, 'mcp__faulty__hang')).execute({}, ctx());
    expect(result).toEqual({ isError: true, output: expect.stringMatching(/did not answer within 0.3 s; the call was cancelled/) });
    // The server is still usable afterwards.
    expect(await (await tool(m, 'mcp__faulty__echo')).execute({ text: 'still here' }, ctx())).toEqual({ output: 'echo: still here' });
  });

  it('cancelling the run ends a hanging call', async () => {
    const m = manager([server()]);
    const hang = await tool(m, 'mcp__faulty__hang');
    const abort = new AbortController();
    const pending = hang.execute({}, ctx(abort.signal));
    abort.abort();
    expect(await pending).toEqual({ isError: true, output: 'MCP tool "hang" of server "faulty" was cancelled.' });
  });

  it('a malformed result is a clear error result', async () => {
    const m = manager([server()]);
    const result = await (await tool(m, 'mcp__faulty__malformed')).execute({}, ctx());
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/MCP tool "malformed" of server "faulty" returned a malformed result \(content: /);
  });

  it('a server that fails at start is failed with the reason and its last stderr lines, after its restarts', async () => {
    const m = manager([server({ args: [faulty, '--fail-at-start'] })], { backoffMs: [20] });
    const s = await until(m, 'faulty', (x) => x.state === 'failed' && !x.reason?.includes('restarting'));
    expect(s.reason).toMatch(/could not start/);
    expect(s.stderr).toEqual(['faulty: cannot open the database', 'faulty: giving up']);
    expect(await m.tools()).toEqual([]);
    expect(m.log('faulty').join('\n')).toMatch(/restarting|could not start/);
  });

  it('runs in the workspace with only its configured env and PATH-like basics', async () => {
    const m = manager([server({ env: { LEVEL: 'debug' } })]);
    const result = await (await tool(m, 'mcp__faulty__env')).execute({}, ctx());
    const { env, cwd } = JSON.parse(result.output as string) as { env: Record<string, string>; cwd: string };
    expect(cwd).toBe(dir);
    expect(env.LEVEL).toBe('debug');
    expect(env.PATH).toBeTruthy();
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.KEEL_TEST_TOKEN).toBeUndefined();
  });

  it('a bad entry is failed with its error while the other servers start', async () => {
    const m = manager([]);
    m.setServers([server()], [{ server: 'broken', message: 'mcp.json: MCP server "broken": "command" must be a string (got number)' }]);
    await m.tools();
    expect(m.status()).toEqual([
      expect.objectContaining({ name: 'faulty', state: 'ready', tools: 5 }),
      expect.objectContaining({ name: 'broken', state: 'failed', reason: expect.stringContaining('"command" must be a string') }),
    ]);
  });

  it('starts nothing in an untrusted workspace', async () => {
    const m = manager([server()], { trusted: false });
    expect(await m.tools()).toEqual([]);
    expect(m.status()[0]).toMatchObject({ state: 'disabled', reason: 'the workspace is not trusted' });
  });

  it('asks before starting a workspace server; declined stays off, disable and enable work', async () => {
    const asked: string[] = [];
    let answer = false;
    const m = manager([server({ origin: 'workspace' })], { approve: async (c) => (asked.push(c.name), answer) });
    await until(m, 'faulty', (s) => s.reason === 'not approved (enable it to be asked again)');
    expect(asked).toEqual(['faulty']);
    expect(await m.tools()).toEqual([]);
    answer = true;
    await m.setEnabled('faulty', true);
    expect(asked).toEqual(['faulty', 'faulty']);
    expect(m.status()[0]).toMatchObject({ state: 'ready', tools: 5 });
    await m.setEnabled('faulty', false);
    expect(m.status()[0]).toMatchObject({ state: 'disabled', reason: 'disabled' });
    expect(await m.tools()).toEqual([]);
  });
});

describe('the per-call timeout setting', () => {
  it('mcpToolTimeout (seconds) from the config reaches the MCP calls; 60 s by default', async () => {
    const { Context } = await import('../../../../src/core/context');
    const { createFsHost } = await import('../../../../src/core/fsHost');
    const make = (overrides: object[]) =>
      Context.create({ folders: [{ path: dir }], host: createFsHost(), env: { KEEL_HOME: join(dir, 'home') }, overrides, mcpServers: { servers: [server()], problems: [] } });
    const plain = await make([]);
    expect(plain.mcp.toolTimeoutMs).toBe(60_000);
    await plain.destroy();
    const ctx = await make([{ mcpToolTimeout: 0.3 }]);
    try {
      const hang = (await ctx.mcp.tools()).find((t) => t.name === 'mcp__faulty__hang')!;
      expect((await hang.execute({}, ctx0())).output).toMatch(/did not answer within 0.3 s/);
    } finally {
      await ctx.destroy();
    }
    expect(ctx.mcp.status()).toEqual([]);
  });
});

function ctx0(): ToolContext {
  return { signal: new AbortController().signal, toolCallId: 't2' } as ToolContext;
}
