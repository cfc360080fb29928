import { streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import type { KeelConfig } from '../../../src/core/config/configSchema';
import { endpointLayer } from '../../../src/core/config/endpointLayer';
import { KeelError } from '../../../src/core/errors';
import { parseModelRef } from '../../../src/core/model/modelRef';
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { effectiveProvider } from '../../../src/core/model/providerPresets';
import { reply } from '../../fixtures/scriptedServer/replyBuilder';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';

const config = (over: Partial<KeelConfig>): KeelConfig => ({ ...defaultConfig, ...over });

function thrown(fn: () => unknown): KeelError {
  try {
    fn();
  } catch (err) {
    if (err instanceof KeelError) return err;
    throw err;
  }
  throw new Error('expected a KeelError');
}

describe('provider presets', () => {
  it('lets a preset provider be used with nothing but its key variable', () => {
    const reg = new ModelRegistry({ config: config({ model: 'deepseek/deepseek-chat' }), env: { DEEPSEEK_API_KEY: 'sk-d' } });
    const resolved = reg.resolve('model');
    expect(resolved.provider).toBe('deepseek');
    expect(resolved.modelId).toBe('deepseek-chat');
    expect(reg.endpoint('deepseek')).toEqual({ provider: 'deepseek', baseURL: 'https://api.deepseek.com/v1', apiKey: 'sk-d', headers: undefined });
  });

  it('names the preset key variable when the key is missing, and never borrows the OpenAI key', () => {
    const reg = new ModelRegistry({ config: config({ model: 'openrouter/anthropic/claude-sonnet-4' }), env: { OPENAI_API_KEY: 'sk-openai' } });
    const err = thrown(() => reg.resolve('model'));
    expect(err.code).toBe('api_key_missing');
    expect(err.message).toContain('OPENROUTER_API_KEY');
  });

  it('needs no key for local servers, and a base URL moves a preset without changing its name', () => {
    const reg = new ModelRegistry({
      config: config({ model: 'ollama/qwen2.5-coder:7b', providers: { ollama: { baseURL: 'http://10.0.0.5:11434/v1' } } }),
      env: {},
    });
    expect(reg.resolve('model').modelId).toBe('qwen2.5-coder:7b');
    expect(reg.endpoint('ollama')?.baseURL).toBe('http://10.0.0.5:11434/v1');
    expect(reg.endpoint('ollama')?.apiKey).toBeUndefined();
  });

  it('applies a preset to a provider of another name, with the config winning over the preset', () => {
    const merged = effectiveProvider('work', { preset: 'openrouter', apiKeyEnv: 'WORK_KEY', headers: { 'x-title': 'Keel' } });
    expect(merged).toMatchObject({ baseURL: 'https://openrouter.ai/api/v1', apiKeyEnv: 'WORK_KEY', api: 'chat', needsKey: true });
    expect(effectiveProvider('mine', undefined)).toBeUndefined();
    expect(effectiveProvider('mine', { baseURL: 'http://x/v1' })?.needsKey).toBe(false);
  });

  it('parses preset names as provider prefixes, keeping slashes in the model id', () => {
    expect(parseModelRef('openrouter/meta-llama/llama-3', defaultConfig)).toEqual({ provider: 'openrouter', modelId: 'meta-llama/llama-3' });
    expect(parseModelRef('vllm/Qwen/Qwen3-8B', defaultConfig)).toEqual({ provider: 'vllm', modelId: 'Qwen/Qwen3-8B' });
  });

  it('turns a preset setting into a layer whose models live on that preset', () => {
    expect(endpointLayer({ preset: 'deepseek', model: 'deepseek-reasoner' })).toEqual({ layer: { model: 'deepseek/deepseek-reasoner' }, provider: 'deepseek' });
    const moved = endpointLayer({ preset: 'lmstudio', baseURL: 'http://127.0.0.1:4321/v1', model: 'lmstudio/qwen3' });
    expect(moved.layer).toEqual({ providers: { lmstudio: { preset: 'lmstudio', baseURL: 'http://127.0.0.1:4321/v1' } }, model: 'lmstudio/qwen3' });
  });
});

describe('a preset pointed at a real endpoint', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ scenario: { turns: [reply.text('hello from the preset')] } });
  });
  afterAll(() => server.close());

  it('streams a reply through the preset provider', async () => {
    const reg = new ModelRegistry({ config: config({ model: 'vllm/scripted-model', providers: { vllm: { baseURL: server.baseURL } } }), env: {} });
    const result = streamText({ model: reg.resolve('model').model, prompt: 'hi' });
    expect(await result.text).toBe('hello from the preset');
    expect(server.requests[0].body.model).toBe('scripted-model');
  });
});
