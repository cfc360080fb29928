// The wire conformance suite (test/conformance/wireConformance.ts) against every HTTP model
// source: Keel's lean wires as the registry builds them, and the AI SDK's own providers as
// the reference they must match. vscode.lm runs the same cases in the integration tier
// (test/integration/suite/wireConformance.test.ts), where VS Code's API is real.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import type { ProviderConfig } from '../../../src/core/config/configSchema';
import { mergeLayers } from '../../../src/core/config/loadConfig';
import { providerOrigin } from '../../../src/core/model/keyOrigin';
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { LeanLanguageModel } from '../../../src/core/model/wire/leanLanguageModel';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { wireCases } from '../../conformance/wireConformance';
import type { ModelSource } from '../../conformance/wireConformance';

const http = { exactUsage: true, httpStatus: true, rawArguments: true };

/** A model as Keel's registry makes it for a provider configured this way. */
function registryModel(provider: ProviderConfig) {
  const model = resolved(provider);
  if (!(model instanceof LeanLanguageModel)) throw new Error('the registry did not build a lean model');
  return model;
}

function resolved(provider: ProviderConfig) {
  const registry = new ModelRegistry({
    config: mergeLayers(defaultConfig, { model: 'p/scripted-model', providers: { p: provider } }),
    env: {},
    apiKeys: { p: { key: 'sk-test', origin: providerOrigin('p', provider) } },
  });
  return registry.resolve('model').model;
}

const sources: ModelSource[] = [
  {
    name: 'lean Chat Completions (OpenAI-compatible endpoint)',
    traits: { ...http, reasoning: true },
    model: (s) => registryModel({ baseURL: s.baseURL }),
  },
  {
    name: 'lean Chat Completions (OpenAI)',
    traits: { ...http, reasoning: true },
    // The OpenAI preset's flavour; the base URL only moves it to the scripted server.
    model: (s) => registryModel({ preset: 'openai', baseURL: s.baseURL }),
  },
  {
    name: 'lean Responses',
    traits: { ...http, reasoning: true },
    model: (s) => registryModel({ baseURL: s.baseURL, api: 'responses' }),
  },
  {
    name: 'lean Anthropic Messages',
    traits: { ...http, reasoning: true, signsReasoning: 'anthropic' },
    model: (s) => registryModel({ preset: 'anthropic', baseURL: s.baseURL }),
  },
  {
    name: 'AI SDK Anthropic Messages (reference)',
    traits: { ...http, reasoning: true, signsReasoning: 'anthropic' },
    model: (s) => createAnthropic({ baseURL: s.baseURL, apiKey: 'sk-test' }).messages('scripted-model'),
  },
  {
    name: 'lean Gemini generateContent',
    // Gemini sends each call's arguments whole, as an object: there is no malformed JSON to pass on.
    traits: { ...http, rawArguments: false, reasoning: true },
    model: (s) => registryModel({ preset: 'google', baseURL: `${s.url}/v1beta` }),
  },
  {
    name: 'AI SDK Google Gemini (reference)',
    traits: { ...http, rawArguments: false, reasoning: true },
    model: (s) => createGoogleGenerativeAI({ baseURL: `${s.url}/v1beta`, apiKey: 'sk-test' }).languageModel('scripted-model'),
  },
  {
    name: 'AI SDK openai-compatible chat (reference)',
    traits: { ...http, reasoning: true },
    model: (s) => createOpenAICompatible({ name: 'ref', baseURL: s.baseURL, apiKey: 'sk-test', includeUsage: true }).chatModel('scripted-model'),
  },
  {
    name: 'AI SDK OpenAI chat (reference)',
    // It does not read reasoning_content.
    traits: { ...http, reasoning: false },
    model: (s) => createOpenAI({ baseURL: s.baseURL, apiKey: 'sk-test' }).chat('scripted-model'),
  },
  {
    name: 'AI SDK OpenAI Responses (reference)',
    traits: { ...http, reasoning: true },
    model: (s) => createOpenAI({ baseURL: s.baseURL, apiKey: 'sk-test' }).responses('scripted-model'),
  },
];

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

for (const source of sources) {
  describe(`wire conformance: ${source.name}`, () => {
    for (const c of wireCases(source)) it(c.name, () => c.run(server));
  });
}
