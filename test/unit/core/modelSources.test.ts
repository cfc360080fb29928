// Model sources (plugins, VS Code's language models) next to configured endpoints.
import type { LanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import type { ConfigLayer } from '../../../src/core/config/configSchema';
import { mergeLayers } from '../../../src/core/config/loadConfig';

const parseConfig = (layer: ConfigLayer) => mergeLayers(defaultConfig, layer);
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import type { ProviderFactory } from '../../../src/core/model/modelRegistry';

const fakeModel = (id: string) => ({ id }) as unknown as LanguageModel;

function source(models: string[], name = 'vscode-lm'): ProviderFactory {
  return {
    name,
    createModel: (id) => fakeModel(id),
    contextWindow: (id) => (models.includes(id) ? 1000 : undefined),
    listModels: () => models.map((id) => ({ id, label: `${id} label` })),
    defaultModel: () => models[0],
  };
}

describe('model sources', () => {
  it('the first offered model is the default when no model is configured', () => {
    const registry = new ModelRegistry({ config: parseConfig({}), env: {}, factories: [source(['copilot/gpt-x', 'other'])] });
    expect(registry.configuredId('model')).toBe('vscode-lm/copilot/gpt-x');
    expect(registry.configuredId('planModel')).toBe('vscode-lm/copilot/gpt-x');
    const resolved = registry.resolve('model');
    expect(resolved).toMatchObject({ provider: 'vscode-lm', modelId: 'copilot/gpt-x', contextWindow: 1000 });
  });

  it('a configured model wins over a source default', () => {
    const registry = new ModelRegistry({ config: parseConfig({ model: 'openai/gpt-4.1' }), env: {}, factories: [source(['a'])] });
    expect(registry.configuredId('model')).toBe('openai/gpt-4.1');
  });

  it('without a source default and a model, it is still "not configured"', () => {
    const registry = new ModelRegistry({ config: parseConfig({}), env: {}, factories: [source([])] });
    expect(registry.configuredId('model')).toBeUndefined();
    expect(() => registry.resolve('model')).toThrow(/No model is configured/);
  });

  it('a source name is a known provider prefix even when config files define one provider', () => {
    const config = parseConfig({ providers: { local: { baseURL: 'http://127.0.0.1:1/v1' } } });
    const registry = new ModelRegistry({ config, env: {}, factories: [source(['m'])] });
    expect(registry.resolve('model', 'vscode-lm/m')).toMatchObject({ provider: 'vscode-lm', modelId: 'm' });
  });

  it('lists what sources offer as <source>/<id>', () => {
    const registry = new ModelRegistry({ config: parseConfig({}), env: {}, factories: [source(['a', 'b'])] });
    expect(registry.sourceModels()).toEqual([
      { id: 'vscode-lm/a', label: 'a label' },
      { id: 'vscode-lm/b', label: 'b label' },
    ]);
  });
});
