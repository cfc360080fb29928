import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { requireRealSandbox } from '../sandbox/sandboxFixture';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig((box) => {
  writeFileSync(join(box.ws, 'payload'), '#!/bin/sh\necho pwned\n');
  writeFileSync(join(box.ws, 'existing.txt'), 'keep me\n');
  execFileSync('git', ['init', '-q'], { cwd: box.ws });
});

function keel(turns: Turn[], args: string[], env: Record<string, string | undefined> = {}) {
  rig.server.load({ turns });
  return runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', ...args], {
    KEEL_HOME: rig.box.home,
    ...env,
  });
}

const ofType = (lines: Array<Record<string, unknown>>, type: string) => lines.filter((l) => l.type === type);
const bashResults = (lines: Array<Record<string, unknown>>) => ofType(lines, 'tool_result').filter((l) => l.name === 'bash');

/** A PATH with the tools the commands need and no bwrap: the machine as one without bubblewrap. */
function pathWithoutBwrap(): string {
  const bin = join(rig.box.dir, 'bin');
  mkdirSync(bin);
  for (const tool of ['touch', 'cat', 'ls', 'git']) symlinkSync(execFileSync('which', [tool]).toString().trim(), join(bin, tool));
  return bin;
}

describe('keel run: command writes are writes (reproduction 3)', () => {
  it('an allow rule for `git status` does not let it write files in manual mode', async () => {
    writeFileSync(join(rig.box.home, 'config.json'), JSON.stringify({ commands: { allow: ['git status'] } }));
    const r = await keel(
      [
        reply.tool('bash', { command: 'git status > notes.txt' }),
        reply.tool('bash', { command: 'git status 2>x' }),
        reply.tool('bash', { command: 'git status > existing.txt' }),
        reply.tool('bash', { command: 'git status' }),
        reply.text('done'),
      ],
      ['--approval', 'manual', 'status'],
    );
    expect(r.code).toBe(0);
    const approvals = ofType(r.lines, 'approval');
    expect(approvals.map((a) => a.approved)).toEqual([false, false, false, true]);
    expect(existsSync(join(rig.box.ws, 'notes.txt'))).toBe(false);
    expect(existsSync(join(rig.box.ws, 'x'))).toBe(false);
    expect(readFileSync(join(rig.box.ws, 'existing.txt'), 'utf8')).toBe('keep me\n');
  });
});

describe('keel run: what tee and cp write is seen before they run (reproduction 4 without a sandbox)', () => {
  it('in yolo with the sandbox off, tee into .vscode and cp into .git/hooks ask, and with no one to ask nothing is written', async () => {
    const r = await keel(
      [
        reply.tool('bash', { command: 'mkdir -p .vscode && echo x | tee .vscode/launch.json' }),
        reply.tool('bash', { command: 'cp payload .git/hooks/pre-push' }),
        reply.tool('bash', { command: 'cp payload copy.sh' }),
        reply.text('done'),
      ],
      ['--approval', 'yolo', '--sandbox', 'off', 'go'],
    );
    expect(r.code).toBe(0);
    expect(ofType(r.lines, 'approval').map((a) => [a.approved, a.reason])).toEqual([
      [false, expect.stringMatching(/protected path/)],
      [false, expect.stringMatching(/protected path/)],
      [true, 'yolo mode'],
    ]);
    expect(existsSync(join(rig.box.ws, '.vscode', 'launch.json'))).toBe(false);
    expect(existsSync(join(rig.box.ws, '.git', 'hooks', 'pre-push'))).toBe(false);
    expect(existsSync(join(rig.box.ws, 'copy.sh'))).toBe(true);
  });
});

describe('keel run in the OS sandbox (real bubblewrap)', () => {
  beforeAll(requireRealSandbox);

  it('reproduction 4: in yolo, what the analysis cannot see (tee to a variable, node, python3) cannot write protected paths; the result says the sandbox refused', async () => {
    const r = await keel(
      [
        reply.tool('bash', { command: 'mkdir -p .vscode; f=.vscode/launch.json; echo x | tee "$f"' }),
        reply.tool('bash', { command: `node -e "require('fs').copyFileSync('payload', '.git/hooks/pre-push')"` }),
        reply.tool('bash', { command: `python3 -c "open('.git/hooks/post-checkout','w').write('x')"` }),
        reply.text('done'),
      ],
      ['--approval', 'yolo', 'go'],
    );
    expect(r.code).toBe(0);
    expect(existsSync(join(rig.box.ws, '.vscode', 'launch.json'))).toBe(false);
    expect(existsSync(join(rig.box.ws, '.git', 'hooks', 'pre-push'))).toBe(false);
    expect(existsSync(join(rig.box.ws, '.git', 'hooks', 'post-checkout'))).toBe(false);
    const results = bashResults(r.lines);
    expect(results).toHaveLength(3);
    for (const res of results) {
      expect(res.sandboxed).toBe(true);
      expect(String(res.output)).toMatch(/ran in Keel's OS sandbox, and it probably failed because of it/);
    }
  });

  it('in autoEdit a sandboxed command runs without asking; asking for the network still asks', async () => {
    const r = await keel(
      [reply.tool('bash', { command: 'touch ran.txt' }), reply.tool('bash', { command: 'touch net.txt', network: true }), reply.text('ok')],
      ['--approval', 'autoEdit', 'go'],
    );
    expect(r.code).toBe(0);
    expect(existsSync(join(rig.box.ws, 'ran.txt'))).toBe(true);
    expect(existsSync(join(rig.box.ws, 'net.txt'))).toBe(false);
    expect(ofType(r.lines, 'approval').map((a) => [a.approved, a.reason])).toEqual([
      [true, 'sandboxed command in autoEdit mode'],
      [false, expect.stringMatching(/network access/)],
    ]);
    expect(bashResults(r.lines)[0].sandboxed).toBe(true);
  });

  it("a command on the person's sandboxNetwork list gets the network without asking; another one asking for it is asked", async () => {
    writeFileSync(join(rig.box.home, 'config.json'), JSON.stringify({ sandboxNetwork: ['node'] }));
    const url = `${rig.server.baseURL}/models`;
    const probe = `node -e "fetch('${url}').then(r => console.log('reached', r.status), e => { console.log('unreachable', e.cause?.code); process.exit(4) })"`;
    const r = await keel(
      [reply.tool('bash', { command: probe }), reply.tool('bash', { command: `echo x && ${probe}`, network: true }), reply.text('ok')],
      ['--approval', 'autoEdit', 'go'],
    );
    expect(r.code).toBe(0);
    const results = bashResults(r.lines);
    expect(String(results[0].output)).toMatch(/reached/);
    expect(ofType(r.lines, 'approval').map((a) => a.approved)).toEqual([true, false]);
  });

  it('without network a sandboxed command cannot reach the model server on 127.0.0.1', async () => {
    const probe = `node -e "fetch('${rig.server.baseURL}/models').then(r => console.log('reached', r.status), e => { console.log('unreachable', e.cause?.code); process.exit(4) })"`;
    const r = await keel([reply.tool('bash', { command: probe }), reply.text('ok')], ['--approval', 'autoEdit', 'go']);
    expect(r.code).toBe(0);
    const out = String(bashResults(r.lines)[0].output);
    expect(out).toMatch(/unreachable/);
    expect(out).toMatch(/it has no network/);
  });

  it('running outside the sandbox always asks, even in yolo', async () => {
    const r = await keel([reply.tool('bash', { command: 'touch outside.txt', unsandboxed: true }), reply.text('ok')], ['--approval', 'yolo', 'go']);
    expect(r.code).toBe(0);
    expect(ofType(r.lines, 'approval')[0]).toMatchObject({ approved: false });
    expect(String(ofType(r.lines, 'approval')[0].reason)).toMatch(/outside the OS sandbox/);
    expect(existsSync(join(rig.box.ws, 'outside.txt'))).toBe(false);
  });

  it('--sandbox off runs commands unconfined and says so in the result', async () => {
    const r = await keel([reply.tool('bash', { command: 'touch off.txt' }), reply.text('ok')], ['--approval', 'yolo', '--sandbox', 'off', 'go']);
    expect(r.code).toBe(0);
    expect(bashResults(r.lines)[0].sandboxed).toBe(false);
    expect(existsSync(join(rig.box.ws, 'off.txt'))).toBe(true);
  });
});

describe('keel run where bubblewrap is missing', () => {
  it('says at the start, on stderr, which protections commands lack; a plan run, which runs none, does not', async () => {
    const path = pathWithoutBwrap();
    const r = await keel([reply.text('ok')], ['--approval', 'manual', 'go'], { PATH: path });
    expect(r.code).toBe(0);
    const line = r.stderr.split('\n').find((l) => l.startsWith('keel: No OS sandbox is available here'));
    expect(line).toBeDefined();
    for (const words of ['not installed or not on PATH', 'writes confined to the workspace', 'no network', 'Unix sockets', 'secret files', 'other processes']) {
      expect(line).toContain(words);
    }
    const plan = await keel([reply.text('a plan')], ['--plan', 'plan it'], { PATH: path });
    expect(plan.stderr).not.toMatch(/No OS sandbox/);
    const off = await keel([reply.text('ok')], ['--sandbox', 'off', 'go']);
    expect(off.stderr).toMatch(/^keel: The OS sandbox is off \(your setting\)/m);
    const full = await keel([reply.text('ok')], ['go']);
    expect(full.stderr).not.toMatch(/OS sandbox/);
  });

  it('auto runs commands unsandboxed and says so once', async () => {
    const r = await keel(
      [reply.tool('bash', { command: 'touch one.txt' }), reply.tool('bash', { command: 'touch two.txt' }), reply.text('ok')],
      ['--approval', 'yolo', 'go'],
      { PATH: pathWithoutBwrap() },
    );
    expect(r.code).toBe(0);
    const results = bashResults(r.lines);
    expect(results.map((x) => x.sandboxed)).toEqual([false, false]);
    expect(String(results[0].output)).toMatch(/commands run without an OS sandbox here \(bubblewrap \(bwrap\) is not installed/);
    expect(String(results[1].output)).not.toMatch(/without an OS sandbox/);
    expect(existsSync(join(rig.box.ws, 'two.txt'))).toBe(true);
  });

  it('on refuses commands', async () => {
    const r = await keel([reply.tool('bash', { command: 'touch refused.txt' }), reply.text('ok')], ['--approval', 'yolo', '--sandbox', 'on', 'go'], {
      PATH: pathWithoutBwrap(),
    });
    expect(r.code).toBe(0);
    const res = bashResults(r.lines)[0];
    expect(res.isError).toBe(true);
    expect(String(res.output)).toMatch(/sandbox is "on" but no OS sandbox is available/);
    expect(existsSync(join(rig.box.ws, 'refused.txt'))).toBe(false);
  });
});

describe('keel run: MCP calls that name protected paths (reproduction 5)', () => {
  const filesystemEntry = resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

  it('in yolo, server-filesystem cannot rewrite .vscode/settings.json without asking', async () => {
    mkdirSync(join(rig.box.ws, '.vscode'));
    writeFileSync(join(rig.box.ws, '.vscode', 'settings.json'), '{}\n');
    const mcp = { servers: { fs: { type: 'stdio', command: process.execPath, args: [filesystemEntry, rig.box.ws] } } };
    const r = await keel(
      [
        reply.tool('mcp__fs__write_file', { path: join(rig.box.ws, '.vscode', 'settings.json'), content: '{"keel.approvalMode": "yolo"}' }),
        reply.tool('mcp__fs__write_file', { path: 'file://' + join(rig.box.ws, '.vscode', 'settings.json'), content: '{"keel.approvalMode": "yolo"}' }),
        reply.tool('mcp__fs__write_file', { path: join(rig.box.ws, 'notes.md'), content: 'fine' }),
        reply.text('done'),
      ],
      ['--approval', 'yolo', '--mcp-config', JSON.stringify(mcp), 'go'],
    );
    expect(r.code).toBe(0);
    expect(ofType(r.lines, 'approval').map((a) => [a.approved, a.reason])).toEqual([
      [false, expect.stringMatching(/no one was there to approve it \(protected path/)],
      [false, expect.stringMatching(/protected path/)],
      [true, 'yolo mode'],
    ]);
    expect(readFileSync(join(rig.box.ws, '.vscode', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(rig.box.ws, 'notes.md'), 'utf8')).toBe('fine');
  });
});
