// The wire conformance suite (test/conformance/wireConformance.ts) against the providers Keel
// reaches through the AI SDK's own packages (and the APIs that moved from them to Keel's own wires),
// each as the registry builds it from a person's config and environment, over real HTTP to the
// scripted server speaking that API's own format: Gemini's streamGenerateContent SSE on Keel's
// lean wire (the Gemini API, and Vertex with Application Default
// Credentials from a metadata server), Claude on Vertex (rawPredict), Bedrock's ConverseStream
// in AWS's binary event stream (SigV4-signed; Keel's own wire, with the AI SDK's Bedrock provider as
// the reference it must match), and Azure OpenAI's v1 Responses API (Keel's own wire).
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import type { ProviderConfig } from '../../../src/core/config/configSchema';
import { mergeLayers } from '../../../src/core/config/loadConfig';
import { providerOrigin } from '../../../src/core/model/keyOrigin';
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { BedrockModel } from '../../../src/core/model/sdk/bedrockModel';
import { LeanLanguageModel } from '../../../src/core/model/wire/leanLanguageModel';
import { METADATA_TOKEN } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { wireCases } from '../../conformance/wireConformance';
import type { ModelSource } from '../../conformance/wireConformance';
import { scriptedServerWithMetadata } from './sdkProviderEnv';

const http = { exactUsage: true, httpStatus: true, rawArguments: true };
const awsEnv = { AWS_ACCESS_KEY_ID: 'AKIDSCRIPTED', AWS_SECRET_ACCESS_KEY: 'scripted-secret', AWS_SESSION_TOKEN: 'scripted-session', AWS_REGION: 'us-east-1' };

function model<T>(kind: abstract new (...args: never[]) => T, provider: ProviderConfig, opts: { model?: string; env?: Record<string, string>; key?: string } = {}): T {
  const registry = new ModelRegistry({
    config: mergeLayers(defaultConfig, { model: `p/${opts.model ?? 'scripted-model'}`, providers: { p: provider } }),
    env: opts.env ?? {},
    apiKeys: opts.key ? { p: { key: opts.key, origin: providerOrigin('p', provider) } } : {},
  });
  const built = registry.resolve('model').model;
  if (!(built instanceof kind)) throw new Error(`the registry did not build a ${kind.name}`);
  return built;
}

const sources: ModelSource[] = [
  {
    name: 'Gemini API (Keel’s lean generateContent wire)',
    // Gemini sends each call's arguments whole, as an object: there is no malformed JSON to pass on.
    traits: { ...http, rawArguments: false, reasoning: true },
    model: (s) => model(LeanLanguageModel, { preset: 'google', baseURL: `${s.url}/v1beta` }, { model: 'gemini-2.5-pro', key: 'sk-test' }),
  },
  {
    name: 'Vertex AI Gemini with Application Default Credentials (Keel’s lean generateContent wire)',
    traits: { ...http, rawArguments: false, reasoning: true },
    model: (s) => model(LeanLanguageModel, { preset: 'vertex', baseURL: s.url, project: 'keel-test', region: 'us-central1' }, { model: 'gemini-2.5-pro' }),
  },
  {
    name: 'Vertex AI Claude (Keel’s own Messages wire, rawPredict)',
    traits: { ...http, reasoning: true, signsReasoning: 'anthropic' },
    model: (s) => model(LeanLanguageModel, { preset: 'vertex', baseURL: s.url, project: 'keel-test', region: 'us-east5' }, { model: 'claude-sonnet-4-5' }),
  },
  {
    name: 'Amazon Bedrock Converse (Keel’s own wire, SigV4)',
    traits: { ...http, reasoning: true, signsReasoning: 'bedrock' },
    model: (s) => model(BedrockModel, { preset: 'bedrock', baseURL: s.url }, { model: 'anthropic.claude-sonnet-4-5-v1:0', env: awsEnv }),
  },
  {
    name: 'Amazon Bedrock Converse (AI SDK Bedrock provider, the reference)',
    traits: { ...http, reasoning: true, signsReasoning: 'bedrock' },
    model: (s) =>
      createAmazonBedrock({ baseURL: s.url, region: 'us-east-1', accessKeyId: 'AKIDSCRIPTED', secretAccessKey: 'scripted-secret', sessionToken: 'scripted-session' }).languageModel(
        'anthropic.claude-sonnet-4-5-v1:0',
      ),
  },
  {
    name: 'Azure OpenAI Responses (Keel’s lean Responses wire at the resource’s /openai/v1)',
    traits: { ...http, reasoning: true },
    model: (s) => model(LeanLanguageModel, { preset: 'azure', baseURL: `${s.url}/openai` }, { key: 'sk-test' }),
  },
];

const scripted = scriptedServerWithMetadata();

for (const source of sources) {
  describe(`wire conformance: ${source.name}`, () => {
    for (const c of wireCases(source)) it(c.name, () => c.run(scripted()));
  });
}

describe('what each provider puts on the wire', () => {
  it('sends the Gemini key as x-goog-api-key, Vertex its ADC token, Bedrock a SigV4 signature with the session token, Azure api-key', async () => {
    const server = scripted();
    const ask = async (source: ModelSource) => {
      const [c] = wireCases(source);
      await c.run(server);
      return server.requests[0];
    };
    const gemini = await ask(sources[0]);
    expect(gemini.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(gemini.headers['x-goog-api-key']).toBe('sk-test');
    // The tools' JSON Schema goes as it is (parametersJsonSchema), not cut down to Google's OpenAPI subset.
    expect(gemini.body.tools?.map((t) => t.function?.parameters)).toContainEqual({ type: 'object', properties: { file_path: { type: 'string' } } });
    const vertex = await ask(sources[1]);
    expect(vertex.path).toBe('/v1beta1/projects/keel-test/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(vertex.headers.authorization).toBe(`Bearer ${METADATA_TOKEN}`);
    const claude = await ask(sources[2]);
    expect(claude.path).toBe('/v1/projects/keel-test/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5:streamRawPredict');
    expect(claude.headers.authorization).toBe(`Bearer ${METADATA_TOKEN}`);
    expect(claude.body.anthropic_version).toBe('vertex-2023-10-16');
    const bedrock = await ask(sources[3]);
    expect(bedrock.path).toBe(`/model/${encodeURIComponent('anthropic.claude-sonnet-4-5-v1:0')}/converse-stream`);
    expect(bedrock.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDSCRIPTED\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/);
    expect(bedrock.headers['x-amz-security-token']).toBe('scripted-session');
    const azure = await ask(sources[5]);
    expect(azure.path).toBe('/openai/v1/responses');
    expect(azure.headers['api-key']).toBe('sk-test');
    expect(azure.headers.authorization).toBeUndefined();
  });
});
