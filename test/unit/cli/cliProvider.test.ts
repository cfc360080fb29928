import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();

describe('keel run --provider', () => {
  it("sends the preset's own key, never the OpenAI key from the environment", async () => {
    rig.server.load({ turns: [reply.text('answered by the preset')] });
    const run = await runCli(
      rig.cli,
      ['run', '--cwd', rig.box.ws, '--provider', 'vllm', '--base-url', rig.server.baseURL, '--model', 'scripted-model', 'hi'],
      { KEEL_HOME: rig.box.home, OPENAI_API_KEY: 'sk-openai-secret', VLLM_API_KEY: 'sk-vllm' },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answered by the preset');
    expect(rig.server.requests[0].headers.authorization).toBe('Bearer sk-vllm');
  });

  it('refuses an unknown preset with a usage error naming the known ones', async () => {
    const run = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--provider', 'nonesuch', 'hi'], { KEEL_HOME: rig.box.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--provider must be one of openai, deepseek, openrouter, ollama, lmstudio, vllm');
  });
});
