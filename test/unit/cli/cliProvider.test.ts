import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { buildCli, runCli, sandbox } from './cliHarness';

let cli: string;
let server: ScriptedServer;
let box: ReturnType<typeof sandbox>;

beforeAll(async () => {
  cli = await buildCli();
  server = await startScriptedServer();
}, 60_000);
afterAll(() => server.close());
beforeEach(() => {
  box = sandbox();
});
afterEach(() => rmSync(box.dir, { recursive: true, force: true }));

describe('keel run --provider', () => {
  it("sends the preset's own key, never the OpenAI key from the environment", async () => {
    server.load({ turns: [reply.text('answered by the preset')] });
    const run = await runCli(
      cli,
      ['run', '--cwd', box.ws, '--provider', 'vllm', '--base-url', server.baseURL, '--model', 'scripted-model', 'hi'],
      { KEEL_HOME: box.home, OPENAI_API_KEY: 'sk-openai-secret', VLLM_API_KEY: 'sk-vllm' },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answered by the preset');
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-vllm');
  });

  it('refuses an unknown preset with a usage error naming the known ones', async () => {
    const run = await runCli(cli, ['run', '--cwd', box.ws, '--provider', 'azure', 'hi'], { KEEL_HOME: box.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--provider must be one of openai, deepseek, openrouter, ollama, lmstudio, vllm');
  });
});
