// Tools from plugins follow the built-in tools' rules: declared category, approval, workspace paths.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import type { Host } from '../../../src/core/host';
import { createFsHost } from '../../../src/core/fsHost';
import { acceptPluginTools } from '../../../src/core/plugins/pluginTools';
import type { KeelPlugin } from '../../../src/core/plugins/pluginTypes';
import { Project } from '../../../src/core/project';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/tools/tool';
import type { ApprovalMode } from '../../../src/core/config/configSchema';
import { defineTool } from '../../../src/core/tools/tool';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';

let server: ScriptedServer;
let dir: string;
let ws: string;
let logs: string[];

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-plugin-tools-'));
  ws = join(dir, 'ws');
  mkdirSync(join(ws, '.vscode'), { recursive: true });
  writeFileSync(join(dir, 'outside.txt'), 'secret\n');
  logs = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A careless plugin tool: it writes `text` to `file` (relative to the workspace) without checking
 * the path itself; only its preview names the file. Keel's checks are all that stands in between.
 */
function stampTool(writes: string[]) {
  return defineTool({
    name: 'stamp',
    description: 'writes a stamp file',
    category: 'write',
    inputSchema: z.object({ file: z.string(), text: z.string() }),
    async preview(input) {
      return { summary: `stamp ${input.file}`, paths: [input.file.startsWith('/') ? input.file : join(ws, input.file)] };
    },
    async execute(input) {
      const path = input.file.startsWith('/') ? input.file : join(ws, input.file);
      writeFileSync(path, input.text);
      writes.push(path);
      return { output: `stamped ${input.file}` };
    },
  });
}

async function run(turns: Turn[], plugin: KeelPlugin, mode: ApprovalMode, answers: ApprovalAnswer[] = []) {
  server.load({ turns });
  const base = createFsHost();
  const host: Host = { ...base, log: (level, message) => logs.push(`${level}: ${message}`) };
  const ctx = await Context.create({
    folders: [{ path: ws }],
    host,
    env: { KEEL_HOME: join(dir, 'home') },
    overrides: [{ model: 'local/scripted', providers: { local: { baseURL: server.baseURL } }, approvalMode: mode }],
    plugins: [plugin],
  });
  const asked: ApprovalRequest[] = [];
  const result = await new Project(ctx, ctx.sessions.create()).send('go', {
    onToolApprove: async (r) => {
      asked.push(r);
      return answers.shift() ?? { approved: false };
    },
  });
  return { result, asked };
}

const lastToolResult = () => JSON.stringify(server.requests.at(-1)?.body.messages.at(-1));

describe('plugin tools', () => {
  it('a write-category plugin tool asks in manual mode and runs after approval', async () => {
    const writes: string[] = [];
    const { asked, result } = await run(
      [reply.tool('stamp', { file: 'stamp.txt', text: 'ok' }), reply.text('done', { match: { lastToolResultIncludes: 'stamped stamp.txt' } })],
      { name: 'stamper', tool: () => [stampTool(writes)] },
      'manual',
      [{ approved: true }],
    );
    expect(result.status).toBe('completed');
    expect(asked).toMatchObject([{ tool: 'stamp', category: 'write', paths: ['stamp.txt'], protected: false }]);
    expect(readFileSync(join(ws, 'stamp.txt'), 'utf8')).toBe('ok');
  });

  it('a declined plugin tool does not run', async () => {
    const writes: string[] = [];
    await run(
      [reply.tool('stamp', { file: 'stamp.txt', text: 'no' }), reply.text('ok', { match: { lastToolResultIncludes: 'declined' } })],
      { name: 'stamper', tool: () => [stampTool(writes)] },
      'manual',
      [{ approved: false }],
    );
    expect(writes).toEqual([]);
    expect(existsSync(join(ws, 'stamp.txt'))).toBe(false);
  });

  it('a protected path named by a plugin tool asks even in yolo mode', async () => {
    const writes: string[] = [];
    const { asked } = await run(
      [reply.tool('stamp', { file: '.vscode/settings.json', text: '{}' }), reply.text('ok', { match: { lastToolResultIncludes: 'declined' } })],
      { name: 'stamper', tool: () => [stampTool(writes)] },
      'yolo',
      [{ approved: false }],
    );
    expect(asked).toMatchObject([{ tool: 'stamp', protected: true, rule: 'protected path' }]);
    expect(writes).toEqual([]);
  });

  it('a path outside the workspace in a plugin tool preview is refused before anyone is asked', async () => {
    const writes: string[] = [];
    const { asked } = await run(
      [reply.tool('stamp', { file: join(dir, 'outside.txt'), text: 'pwned' }), reply.text('ok', { match: { lastToolResultIncludes: 'outside the workspace' } })],
      { name: 'stamper', tool: () => [stampTool(writes)] },
      'yolo',
    );
    expect(asked).toEqual([]);
    expect(writes).toEqual([]);
    expect(readFileSync(join(dir, 'outside.txt'), 'utf8')).toBe('secret\n');
    expect(lastToolResult()).toMatch(/outside the workspace/);
  });

  it('leaves out malformed plugin tools with a log line and keeps the valid ones', () => {
    const good = stampTool([]);
    const out = acceptPluginTools(
      [
        good,
        { ...good, name: 'no category', category: undefined },
        { ...good, name: 'nocategory', category: 'admin' },
        { ...good, name: 'noschema', inputSchema: { type: 'object' } },
        { ...good, name: 'noexec', execute: 'x' },
        null,
      ],
      (level, message) => logs.push(`${level}: ${message}`),
    );
    expect(out.map((t) => t.name)).toEqual(['stamp']);
    expect(logs).toHaveLength(5);
    expect(logs.join('\n')).toMatch(/must declare its category/);
    expect(logs.join('\n')).toMatch(/zod \(v4\) inputSchema/);
  });

  it('a malformed plugin tool does not break the run', async () => {
    const { result } = await run([reply.text('fine')], { name: 'broken-tools', tool: () => [{ name: 'bad' } as never] }, 'manual');
    expect(result.text).toBe('fine');
    expect(logs.some((l) => l.includes('A plugin tool was left out'))).toBe(true);
  });
});
