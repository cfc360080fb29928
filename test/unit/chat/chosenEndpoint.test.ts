// Which endpoint the first-run panel talks about, and whether it asks for a key.
import { describe, expect, it } from 'vitest';
import { chosenEndpoint } from '../../../src/chat/settings/chosenEndpoint';
import { settingsLayer } from '../../../src/chat/settings/settingsLayer';
import { defaultConfig } from '../../../src/core/config/configSchema';
import type { KeelSettings } from '../../../src/chat/settings/settingsLayer';

function endpointFor(settings: KeelSettings) {
  const { layer, provider } = settingsLayer(settings);
  return chosenEndpoint({ ...defaultConfig, providers: layer.providers ?? {} }, provider);
}

describe('the endpoint before a model is chosen', () => {
  it('needs a key for OpenAI and the hosted presets', () => {
    expect(endpointFor({})).toEqual({ label: 'OpenAI', needsKey: true });
    expect(endpointFor({ provider: 'deepseek' })).toMatchObject({ label: 'DeepSeek', needsKey: true });
  });

  it('needs no key for a local preset or a custom base URL', () => {
    expect(endpointFor({ provider: 'ollama' })).toEqual({ label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', needsKey: false });
    expect(endpointFor({ baseUrl: 'http://127.0.0.1:8080/v1' })).toEqual({ label: 'http://127.0.0.1:8080/v1', baseURL: 'http://127.0.0.1:8080/v1', needsKey: false });
  });
});
