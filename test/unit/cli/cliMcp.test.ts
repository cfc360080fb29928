import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everythingEntry } from '../../fixtures/mcp/everythingServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();

function keel(turns: Turn[], args: string[]) {
  rig.server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', ...args], { KEEL_HOME: rig.box.home });
}

const everything = { servers: { everything: { type: 'stdio', command: process.execPath, args: [everythingEntry, 'stdio'] } } };

describe('keel run --mcp-config', () => {
  it('takes inline JSON: the MCP tool runs and its result reaches the model', async () => {
    const r = await keel([reply.tool('mcp__everything__echo', { message: 'cli says hi' }), reply.text('done')], ['--mcp-config', JSON.stringify(everything), 'echo']);
    expect(r.code).toBe(0);
    const result = r.lines.find((l) => l.type === 'tool_result');
    expect(result).toMatchObject({ name: 'mcp__everything__echo', isError: false, output: 'Echo: cli says hi' });
    expect(JSON.stringify(rig.server.requests.at(-1)?.body.messages.at(-1))).toContain('Echo: cli says hi');
  });

  it('takes a file, reports a bad entry on stderr and still starts the others', async () => {
    const file = join(rig.box.dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ servers: { ...everything.servers, broken: { type: 'stdio', args: [] } } }));
    const r = await keel([reply.tool('mcp__everything__get-sum', { a: 20, b: 22 }), reply.text('done')], ['--mcp-config', file, 'add']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/MCP server "broken": "command" must be a string/);
    expect(JSON.stringify(rig.server.requests.at(-1)?.body.messages.at(-1))).toContain('The sum of 20 and 22 is 42');
  });

  it('exits 2 naming the flag when the JSON is broken or the file is missing', async () => {
    const bad = await keel([], ['--mcp-config', '{"servers": ', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--mcp-config: not valid JSON/);
    const missing = await keel([], ['--mcp-config', join(rig.box.dir, 'nope.json'), 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--mcp-config .*nope.json: cannot read the file/);
  });
});
