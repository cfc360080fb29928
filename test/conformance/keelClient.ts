// The client command the MCP conformance suite runs once per scenario: it appends the
// scenario's server URL as the last argument. This starts the scripted model server, points
// the real `keel run` (bundled by runConformance.mjs, path in KEEL_CONFORMANCE_CLI) at it with
// that URL as its only MCP server, and lets the model call whichever of the scenarios' tools
// the server offers. Exit code: keel run's.
//
// Sign-in: `keel run` prints "Open this URL to sign in: <url>" on stderr and waits for its
// loopback redirect. The auth scenarios' authorization endpoint grants at once, so this script
// plays the person's browser: it opens each printed URL and follows the redirects back to Keel.
// Pre-registered client credentials (MCP_CONFORMANCE_CONTEXT) go into the server's `oauth`
// entry, as the person would write them in their own config.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer } from '../fixtures/scriptedServer/scriptedServer.ts';

const serverUrl = process.argv[process.argv.length - 1];
const cli = process.env.KEEL_CONFORMANCE_CLI;
if (!serverUrl || !/^https?:\/\//.test(serverUrl)) {
  process.stderr.write(`keelClient: expected the scenario's server URL as the last argument, got ${JSON.stringify(serverUrl)}\n`);
  process.exit(2);
}
if (!cli) {
  process.stderr.write('keelClient: KEEL_CONFORMANCE_CLI (the bundled keel CLI) is not set; run it through scripts/runConformance.mjs\n');
  process.exit(2);
}

/** Tools the client scenarios offer, with the arguments a model would pass. */
const scenarioTools: Array<{ name: string; arguments: Record<string, unknown> }> = [
  { name: 'add_numbers', arguments: { a: 2, b: 3 } },
  { name: 'test_client_elicitation_defaults', arguments: {} },
  { name: 'test_reconnection', arguments: {} },
  // The auth scenarios' server; in auth/scope-step-up calling it needs more scopes than listing.
  { name: 'test-tool', arguments: {} },
];
const toolName = (tool: string): string => `mcp__conformance__${tool}`;

const model = await startScriptedServer({
  scenario: {
    turns: scenarioTools.map((t) => ({
      optional: true,
      label: t.name,
      match: { toolsInclude: [toolName(t.name)] },
      text: '',
      toolCalls: [{ name: toolName(t.name), arguments: JSON.stringify(t.arguments) }],
    })),
    fallback: { text: 'Done.' },
  },
});
const home = mkdtempSync(join(tmpdir(), 'keel-conformance-'));
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: unknown; client_secret?: unknown };
const oauth = {
  // A Client ID Metadata Document the person hosts (the suite's authorization servers do not fetch it).
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(typeof context.client_id === 'string' ? { clientId: context.client_id } : {}),
  ...(typeof context.client_secret === 'string' ? { clientSecret: context.client_secret } : {}),
};
const mcpConfig = JSON.stringify({ servers: { conformance: { type: 'http', url: serverUrl, oauth } } });
const args = [cli, 'run', '--cwd', home, '--approval', 'yolo', '--sandbox', 'off', '--max-turns', '5', '--base-url', model.baseURL, '--api-key', 'k', '--model', 'scripted-model', '--mcp-config', mcpConfig, '--mcp-elicitation', 'defaults', 'Use the tools of the conformance server.'];
const child = spawn(process.execPath, args, {
  env: { PATH: process.env.PATH, HOME: home, KEEL_HOME: join(home, 'keel'), MCP_CONFORMANCE_SCENARIO: process.env.MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT: process.env.MCP_CONFORMANCE_CONTEXT },
  stdio: ['ignore', 'inherit', 'pipe'],
});
let pending = '';
child.stderr.on('data', (chunk: Buffer) => {
  process.stderr.write(chunk);
  const lines = (pending + chunk.toString('utf8')).split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const url = /Open this URL to sign in: (\S+)/.exec(line)?.[1];
    if (url) void browse(url);
  }
});

/** What a browser does with the sign-in URL: follows the redirects, ending at Keel's loopback listener. */
async function browse(url: string): Promise<void> {
  try {
    const answer = await fetch(url, { redirect: 'follow' });
    process.stderr.write(`keelClient: the sign-in page ended at ${answer.url} (${answer.status})\n`);
  } catch (err) {
    process.stderr.write(`keelClient: opening the sign-in URL failed: ${(err as Error).message}\n`);
  }
}
const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));
await model.close();
rmSync(home, { recursive: true, force: true });
process.exit(code);
