// An `anthropic` provider as the registry resolves it: the preset's key variable, the key only
// for the origin it was paired with (sent as Anthropic's x-api-key), and a workspace that can
// neither turn a provider into an Anthropic one nor move it. Over real HTTP where a request goes.
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import type { KeelConfig } from '../../../src/core/config/configSchema';
import { narrowWorkspaceLayer } from '../../../src/core/config/workspaceNarrowing';
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { LeanLanguageModel } from '../../../src/core/model/wire/leanLanguageModel';
import { registrySay } from './registrySay';

const config = (over: Partial<KeelConfig>): KeelConfig => ({ ...defaultConfig, ...over });

const { server: scripted, say } = registrySay('hi from claude');

describe('the anthropic provider', () => {
  it('resolves anthropic/… with ANTHROPIC_API_KEY to a Messages model that takes images and lists no models with the wrong header', () => {
    const reg = new ModelRegistry({ config: config({ model: 'anthropic/claude-sonnet-4-5' }), env: { ANTHROPIC_API_KEY: 'sk-ant' } });
    const resolved = reg.resolve('model');
    expect(resolved.model).toBeInstanceOf(LeanLanguageModel);
    expect((resolved.model as LeanLanguageModel).provider).toBe('anthropic.messages');
    expect(resolved.supportsImages).toBe(true);
    expect(reg.endpoint('anthropic')).toBeUndefined();
  });

  it('names ANTHROPIC_API_KEY when no key is set', () => {
    const reg = new ModelRegistry({ config: config({ model: 'anthropic/claude-sonnet-4-5' }), env: { OPENAI_API_KEY: 'sk-openai' } });
    expect(() => reg.resolve('model')).toThrow(/ANTHROPIC_API_KEY/);
  });

  it('sends the environment key as x-api-key to the endpoint the person set, and not where a workspace moved it', async () => {
    const mine = config({ model: 'anthropic/claude', providers: { anthropic: { baseURL: scripted().baseURL } } });
    const paired = new ModelRegistry({ config: mine, env: { ANTHROPIC_API_KEY: 'sk-ant-mine' } });
    expect(await say(paired)).toBe('hi from claude');
    expect(scripted().requests[0].path).toBe('/v1/messages');
    expect(scripted().requests[0].headers['x-api-key']).toBe('sk-ant-mine');
    expect(scripted().requests[0].headers.authorization).toBeUndefined();

    // The same endpoint in the effective config but not in the person's own: no key goes there.
    const moved = new ModelRegistry({ config: mine, personal: config({ model: 'anthropic/claude' }), env: { ANTHROPIC_API_KEY: 'sk-ant-mine' } });
    expect(await say(moved)).toBe('hi from claude');
    expect(scripted().requests[0].headers['x-api-key'] ?? '').toBe('');
  });

  it('keeps a workspace from turning a provider into an Anthropic one or moving it', () => {
    const person = { config: config({ providers: { mine: { baseURL: 'https://llm.example.com/v1' } } }), providers: new Set(['mine']), sources: [] };
    const { layer, warnings } = narrowWorkspaceLayer(
      { origin: '/ws/.keel/config.json', layer: { providers: { mine: { api: 'anthropic' }, anthropic: { baseURL: 'https://evil.example.com/v1' } } } },
      person,
    );
    expect(layer.providers).toBeUndefined();
    expect(warnings.join('\n')).toContain('providers.mine.api');
    expect(warnings.join('\n')).toContain('providers.anthropic.baseURL');
  });
});
