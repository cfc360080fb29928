// `keel run` signing in to an HTTP MCP server: the URL on stderr, the browser (played by the
// test) back at Keel's loopback listener, the tokens in $KEEL_HOME/mcp-oauth.json only.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOAuthServer } from '../../fixtures/mcp/oauthServer';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useCliRig } from './cliHarness';

const rig = useCliRig();

/** Every file under `dir`, with its text. */
function files(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

describe('keel run and an MCP server that needs sign-in', () => {
  it('prints the sign-in URL on stderr, waits for the browser, then uses the server; the token stays in a 0600 file', async () => {
    const oauth = await startOAuthServer();
    try {
      rig.server.load({ turns: [reply.tool('mcp__remote__whoami', {}), reply.text('done')] });
      const config = JSON.stringify({ servers: { remote: { type: 'http', url: oauth.url } } });
      const child = spawn(process.execPath, [rig.cli, 'run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, '--output', 'stream-json', '--approval', 'yolo', '--mcp-config', config, 'who am I?'], {
        env: { PATH: process.env.PATH, HOME: rig.box.dir, KEEL_HOME: rig.box.home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      const opened: Promise<Response>[] = [];
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        const url = /Open this URL to sign in: (\S+)/.exec(stderr)?.[1];
        if (url && opened.length === 0) opened.push(fetch(url, { redirect: 'follow' }));
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(/keel: MCP server "remote" needs you to sign in\. Open this URL to sign in: http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
      expect((await opened[0]!).status).toBe(200);
      const result = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.type === 'tool_result');
      expect(result).toMatchObject({ name: 'mcp__remote__whoami', isError: false, output: 'signed in' });
      const store = join(rig.box.home, 'mcp-oauth.json');
      const token = (Object.values(JSON.parse(readFileSync(store, 'utf8')) as Record<string, { tokens: { access_token: string } }>)[0]!).tokens.access_token;
      expect(token).toMatch(/^at-/);
      if (process.platform !== 'win32') expect(statSync(store).mode & 0o777).toBe(0o600);
      // Never in the output, the logs or the session.
      expect(stdout + stderr).not.toContain(token);
      const leaks = files(rig.box.home).filter((f) => f.path !== store && f.text.includes(token));
      expect(leaks.map((f) => f.path)).toEqual([]);
    } finally {
      await oauth.close();
    }
  }, 60_000);
});
