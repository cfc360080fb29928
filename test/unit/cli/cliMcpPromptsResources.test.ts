import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everythingEntry } from '../../fixtures/mcp/everythingServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();
const everything = JSON.stringify({ servers: { everything: { type: 'stdio', command: process.execPath, args: [everythingEntry, 'stdio'] } } });

function keel(turns: Turn[], prompt: string) {
  rig.server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--mcp-config', everything, prompt], { KEEL_HOME: rig.box.home });
}

describe('keel run "/mcp.<server>.<prompt> …"', () => {
  it('sends the prompt the server filled in, spelled as in the VS Code chat', async () => {
    const r = await keel([reply.text('sunny')], '/mcp.everything.args-prompt city=Lisbon state="Lisboa district"');
    expect(r.code).toBe(0);
    expect(JSON.stringify(rig.server.requests.at(-1)?.body.messages.at(-1))).toContain("What's weather in Lisbon, Lisboa district?");
  });

  it('exits 2 naming the prompts there are when the prompt is unknown, and asking for a missing argument', async () => {
    const unknown = await keel([], '/mcp.everything.no-such-prompt');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/There is no MCP prompt \/mcp\.everything\.no-such-prompt\. The prompts of the running servers: .*\/mcp\.everything\.args-prompt/);
    const missing = await keel([], '/mcp.everything.args-prompt state=Texas');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/mcp.everything.args-prompt needs city: /mcp.everything.args-prompt city=… [state=…]');
    expect(rig.server.requests).toHaveLength(0);
  });
});

describe('keel run "… @<server>:<uri> …"', () => {
  it('attaches the resource as a mention block; a word naming no server stays text', async () => {
    const r = await keel([reply.text('read it')], 'look at @everything:demo://resource/dynamic/text/7, and mail @bob:later');
    expect(r.code).toBe(0);
    const sent = JSON.stringify(rig.server.requests.at(-1)?.body.messages.at(-1));
    expect(sent).toContain('<mention kind=\\"resource\\" server=\\"everything\\" uri=\\"demo://resource/dynamic/text/7\\">');
    expect(sent).toMatch(/Resource demo:\/\/resource\/dynamic\/text\/7[^<]*7/);
    expect(sent).not.toContain('server=\\"bob\\"');
  });

  it('says in the block when the server cannot read it', async () => {
    const r = await keel([reply.text('ok')], 'look at @everything:demo://no/such/thing');
    expect(r.code).toBe(0);
    expect(JSON.stringify(rig.server.requests.at(-1)?.body.messages.at(-1))).toContain('[could not attach @everything:demo://no/such/thing:');
  });
});

describe('keel run with a tool that reports progress', () => {
  it('says each progress report on stderr while the tool runs', async () => {
    const growing = JSON.stringify({ servers: { growing: { type: 'stdio', command: process.execPath, args: [join(process.cwd(), 'test/fixtures/mcp/growingServer.mjs')] } } });
    rig.server.load({ turns: [reply.tool('mcp__growing__slow', {}), reply.text('done')] });
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--approval', 'yolo', '--mcp-config', growing, 'go'], { KEEL_HOME: rig.box.home });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/▸ mcp__growing__slow[^]*… 50% half way\n[^]*… 100% all done\n/);
  });
});
