import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everythingEntry } from '../../fixtures/mcp/everythingServer.ts';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import type { Turn } from '../../fixtures/scriptedServer/scenarioTypes.ts';
import { runCli, useCliRig } from './cliHarness';

/**
 * Issue #20, reproduction 6: the person's secrets were in every command's environment. With
 * them in Keel's environment, `env` in a command, in a background job and a local MCP
 * server's own environment show none of them; what the person allows in their own config
 * passes, what a workspace's config names does not, and Keel's own key never does.
 */
const secrets = {
  OPENAI_API_KEY: 'marker-openai-key-0001',
  ANTHROPIC_API_KEY: 'marker-anthropic-key-0002',
  GITHUB_TOKEN: 'marker-github-token-0003',
  AWS_SECRET_ACCESS_KEY: 'marker-aws-secret-0004',
  NPM_TOKEN: 'marker-npm-token-0005',
  FOO_SECRET: 'marker-foo-secret-0006',
  MY_TOOL_TOKEN: 'marker-my-tool-token-0007',
  HTTPS_PROXY: 'http://me:marker-proxy-password-0008@proxy.invalid:3128',
};
const markers = Object.values(secrets).map((v) => v.match(/marker-[a-z-]+-\d+/)![0]);

const rig = useCliRig();

function keel(turns: Turn[], args: string[]) {
  rig.server.load({ turns });
  return runCli(
    rig.cli,
    ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', ...args],
    { KEEL_HOME: rig.box.home, ...secrets, GOPATH: '/opt/go-marker' },
  );
}

const outputs = (lines: Array<Record<string, unknown>>) => lines.filter((l) => l.type === 'tool_result').map((l) => String(l.output));

describe('keel run: commands, background jobs and local MCP servers get no secrets from the environment', () => {
  for (const sandbox of ['auto', 'off']) {
    it(`env shows none of them (sandbox ${sandbox}); the allow-listed toolchain variables pass`, async () => {
      const mcp = { servers: { everything: { type: 'stdio', command: process.execPath, args: [everythingEntry, 'stdio'] } } };
      const r = await keel(
        [
          reply.tool('bash', { command: 'env' }),
          reply.tool('bash', { command: 'env', run_in_background: true }),
          reply.tool('mcp__everything__get-env', {}),
          reply.text('done'),
        ],
        ['--approval', 'yolo', '--sandbox', sandbox, '--mcp-config', JSON.stringify(mcp), 'print the environment'],
      );
      expect(r.code, r.stderr).toBe(0);
      const [fg, bg, server] = outputs(r.lines);
      for (const [what, out] of [['command', fg], ['background job', bg], ['MCP server', server]] as const) {
        expect(out, what).toMatch(/PATH/);
        for (const marker of markers) expect(out, `${what} shows ${marker}`).not.toContain(marker);
      }
      expect(fg).toContain('GOPATH=/opt/go-marker');
      expect(bg).toContain('GOPATH=/opt/go-marker');
      // Nor does anything the model was sent.
      for (const marker of markers) expect(JSON.stringify(rig.server.requests.map((q) => q.body))).not.toContain(marker);
    });
  }

  it("a name the person allows in their own config passes; Keel's own key never does, and a workspace's config adds nothing", async () => {
    writeFileSync(join(rig.box.home, 'config.json'), JSON.stringify({ shellEnv: { allow: ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'MY_TOOL_*'] } }));
    mkdirSync(join(rig.box.ws, '.keel'), { recursive: true });
    writeFileSync(join(rig.box.ws, '.keel', 'config.json'), JSON.stringify({ shellEnv: { allow: ['GITHUB_TOKEN', 'NPM_TOKEN'] } }));
    const r = await keel([reply.tool('bash', { command: 'env' }), reply.text('done')], ['--approval', 'yolo', 'print the environment']);
    expect(r.code, r.stderr).toBe(0);
    const [out] = outputs(r.lines);
    expect(out).toContain(`ANTHROPIC_API_KEY=${secrets.ANTHROPIC_API_KEY}`);
    expect(out).not.toContain(secrets.OPENAI_API_KEY);
    // A prefix never lets a name that looks like a secret through: it must be named.
    expect(out).not.toContain(secrets.MY_TOOL_TOKEN);
    expect(out).not.toContain(secrets.GITHUB_TOKEN);
    expect(out).not.toContain(secrets.NPM_TOKEN);
    expect(r.stderr).toMatch(/"shellEnv".*is ignored: a workspace may not set it/);
  });
});
