import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMcpConfig } from '../../../src/core/mcp/mcpConfig';
import { McpManager } from '../../../src/core/mcp/mcpManager';
import { CommandSandbox } from '../../../src/core/sandbox/commandSandbox';
import type { AnyTool, ToolContext, ToolResult } from '../../../src/core/tools/tool';
import { requireRealSandbox, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

const filesystemEntry = resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

// The real server-filesystem in the real bubblewrap: its tool is called directly, as if the
// person had allowed it, and the sandbox alone must keep it off protected paths.
describe('a local MCP server in the OS sandbox', () => {
  let f: SandboxFixture;
  let manager: McpManager;
  let tools: AnyTool[];
  const logs: string[] = [];

  beforeAll(async () => {
    await requireRealSandbox();
    f = await sandboxFixture();
    manager = new McpManager({
      workspaceRoot: f.ws,
      env: { PATH: process.env.PATH, HOME: f.home },
      trusted: true,
      log: (level, message) => logs.push(`${level}: ${message}`),
      sandboxStart: (cwd) => f.sandbox.serverStart(cwd, (m) => logs.push(m)),
    });
    const parsed = parseMcpConfig(
      { servers: { fs: { type: 'stdio', command: process.execPath, args: [filesystemEntry, f.ws] } } },
      'cli',
      { workspaceFolder: f.ws, env: {} },
      'test',
    );
    manager.setServers(parsed.servers, parsed.problems);
    tools = await manager.tools();
  }, 60_000);
  afterAll(async () => {
    await manager?.dispose();
    await f?.dispose();
  });

  const call = (name: string, input: Record<string, unknown>): Promise<ToolResult> => {
    const tool = tools.find((t) => t.name === `mcp__fs__${name}`);
    if (!tool) throw new Error(`no tool ${name} (${tools.map((t) => t.name).join(', ')}; ${logs.join(' | ')})`);
    return tool.execute(input, { signal: new AbortController().signal } as ToolContext);
  };

  it('starts in the sandbox', () => {
    expect(logs.join('\n')).toMatch(/starting .* \(in the OS sandbox\)/);
  });

  it('writes ordinary workspace files', async () => {
    const result = await call('write_file', { path: join(f.ws, 'notes.md'), content: 'fine' });
    expect(result.isError ?? false).toBe(false);
    expect(readFileSync(join(f.ws, 'notes.md'), 'utf8')).toBe('fine');
  });

  it('cannot rewrite .vscode/settings.json, AGENTS.md or a git hook', async () => {
    for (const rel of ['.vscode/settings.json', 'AGENTS.md', '.git/hooks/pre-commit', '.git/config']) {
      const path = join(f.ws, rel);
      const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
      const result = await call('write_file', { path, content: '{"keel.approvalMode": "yolo"}' });
      expect(result.isError, rel).toBe(true);
      expect(existsSync(path) ? readFileSync(path, 'utf8') : null, rel).toBe(before);
    }
  });
});

describe('a local MCP server where no sandbox is available', () => {
  const none = async () => ({ available: false as const, reason: 'bubblewrap (bwrap) is not installed or not on PATH' });

  async function start(mode: 'auto' | 'on', logs: string[]): Promise<{ manager: McpManager; tools: AnyTool[] }> {
    const sandbox = new CommandSandbox({ mode, folders: [process.cwd()], home: '/nonexistent-home', keelHome: '/nonexistent-keel', detect: none });
    const manager = new McpManager({
      workspaceRoot: process.cwd(),
      env: { PATH: process.env.PATH },
      trusted: true,
      log: (level, message) => logs.push(`${level}: ${message}`),
      sandboxStart: (cwd) => sandbox.serverStart(cwd, (m) => logs.push(m)),
      backoffMs: [],
    });
    const parsed = parseMcpConfig({ servers: { fs: { type: 'stdio', command: process.execPath, args: [filesystemEntry, process.cwd()] } } }, 'cli', { workspaceFolder: process.cwd(), env: {} }, 'test');
    manager.setServers(parsed.servers, parsed.problems);
    return { manager, tools: await manager.tools() };
  }

  it('auto starts it without one and says so', async () => {
    const logs: string[] = [];
    const { manager, tools } = await start('auto', logs);
    try {
      expect(tools.map((t) => t.name)).toContain('mcp__fs__write_file');
      expect(logs.join('\n')).toMatch(/MCP servers run without an OS sandbox here: bubblewrap/);
    } finally {
      await manager.dispose();
    }
  });

  it('on does not start it, and its status says why', async () => {
    const logs: string[] = [];
    const { manager, tools } = await start('on', logs);
    try {
      expect(tools).toEqual([]);
      expect(manager.status()[0]).toMatchObject({ state: 'failed' });
      expect(manager.status()[0].reason).toMatch(/no OS sandbox is available .* local MCP servers are not started/);
    } finally {
      await manager.dispose();
    }
  });
});
