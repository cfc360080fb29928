// How a person configures Gemini, Vertex, Bedrock and Azure, as the registry resolves them: each
// key variable goes only to the origin it was paired with, Bedrock's credentials come from the
// person's AWS chain (a profile in their credentials file) or a Bedrock API key, Vertex takes an
// express-mode key, missing settings and credentials are named, and a workspace can move none of it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import type { KeelConfig } from '../../../src/core/config/configSchema';
import { narrowWorkspaceLayer } from '../../../src/core/config/workspaceNarrowing';
import { catalogueEntry } from '../../../src/core/model/modelCatalogue';
import { sdkDefaultBaseURL } from '../../../src/core/model/sdkEndpoints';
import { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { LeanLanguageModel } from '../../../src/core/model/wire/leanLanguageModel';
import { keyOriginFor } from '../../../src/chat/settings/keyTarget';
import type { LanguageModelSpec } from '../../../src/core/model/wire/modelSpec';
import { registrySay } from './registrySay';

const config = (over: Partial<KeelConfig>): KeelConfig => ({ ...defaultConfig, ...over });

const { server: scripted, say } = registrySay('hi there');

describe('Gemini', () => {
  it('sends GOOGLE_GENERATIVE_AI_API_KEY to the endpoint the person set, and not where only a workspace moved it', async () => {
    const mine = config({ model: 'google/gemini-2.5-flash', providers: { google: { baseURL: `${scripted().url}/v1beta` } } });
    expect(await say(new ModelRegistry({ config: mine, env: { GOOGLE_GENERATIVE_AI_API_KEY: 'g-key' } }))).toBe('hi there');
    expect(scripted().requests[0].headers['x-goog-api-key']).toBe('g-key');

    // The same endpoint in the effective config but not in the person's own: no key goes there.
    const moved = new ModelRegistry({ config: mine, personal: config({}), env: { GOOGLE_GENERATIVE_AI_API_KEY: 'g-key' } });
    expect(await say(moved)).toBe('hi there');
    expect(scripted().requests[0].headers['x-goog-api-key'] ?? '').toBe('');
  });
});

describe('Amazon Bedrock', () => {
  it('names AWS_REGION when no region is set', () => {
    const reg = new ModelRegistry({ config: config({ model: 'bedrock/anthropic.claude-sonnet-4-5-v1:0' }), env: {} });
    expect(() => reg.resolve('model')).toThrow(/AWS_REGION/);
  });

  it('signs with the profile of the person’s shared credentials file, through the AWS credential chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-aws-'));
    writeFileSync(join(dir, 'credentials'), '[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s1\n\n[work]\naws_access_key_id = AKIDWORKPROFILE\naws_secret_access_key = s2\n');
    writeFileSync(join(dir, 'config'), '[profile work]\nregion = eu-west-1\n');
    const reg = new ModelRegistry({
      config: config({ model: 'bedrock/meta.llama3-3-70b-instruct-v1:0', providers: { bedrock: { baseURL: scripted().url, region: 'eu-west-1', profile: 'work' } } }),
      env: { AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'), AWS_CONFIG_FILE: join(dir, 'config') },
    });
    expect(await say(reg)).toBe('hi there');
    expect(scripted().requests[0].headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDWORKPROFILE\/\d{8}\/eu-west-1\/bedrock\/aws4_request/);
    // Llama takes no cache points (Claude and Nova do).
    expect(JSON.stringify(scripted().requests[0].body.bedrockMessages)).not.toContain('cachePoint');
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the region of the person’s AWS profile from their shared config file when nothing else sets one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-aws-'));
    writeFileSync(join(dir, 'config'), '[default]\nregion = us-east-2\n\n[profile work]\noutput = json\nregion = ap-southeast-2\n');
    const env = { AWS_CONFIG_FILE: join(dir, 'config'), AWS_ACCESS_KEY_ID: 'AKIDKEYS', AWS_SECRET_ACCESS_KEY: 's' };
    const work = new ModelRegistry({ config: config({ model: 'bedrock/anthropic.claude-haiku-4-5-v1:0', providers: { bedrock: { baseURL: scripted().url, profile: 'work' } } }), env });
    expect(await say(work)).toBe('hi there');
    expect(scripted().requests[0].headers.authorization).toMatch(/\/ap-southeast-2\/bedrock\/aws4_request/);
    // Without a base URL the endpoint is the profile's region's, and the default profile is [default].
    expect(sdkDefaultBaseURL('bedrock', {}, env)).toBe('https://bedrock-runtime.us-east-2.amazonaws.com');
    const fallback = new ModelRegistry({ config: config({ model: 'bedrock/anthropic.claude-haiku-4-5-v1:0' }), env });
    expect((fallback.resolve('model').model as { provider: string }).provider).toBe('bedrock.bedrock');
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends a Bedrock API key as a bearer token instead of signing', async () => {
    const reg = new ModelRegistry({
      config: config({ model: 'bedrock/anthropic.claude-haiku-4-5-v1:0', providers: { bedrock: { baseURL: scripted().url } } }),
      env: { AWS_REGION: 'us-west-2', AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key' },
    });
    expect(await say(reg)).toBe('hi there');
    expect(scripted().requests[0].headers.authorization).toBe('Bearer bedrock-api-key');
  });
});

describe('Vertex AI', () => {
  it('names the project and location it needs without a key', () => {
    const reg = new ModelRegistry({ config: config({ model: 'vertex/gemini-2.5-pro' }), env: {} });
    expect(() => reg.resolve('model')).toThrow(/GOOGLE_VERTEX_PROJECT and GOOGLE_VERTEX_LOCATION/);
  });

  it('sends an express-mode key (GOOGLE_VERTEX_API_KEY) as x-goog-api-key to the publisher path', async () => {
    const reg = new ModelRegistry({ config: config({ model: 'vertex/gemini-2.5-flash', providers: { vertex: { baseURL: scripted().url } } }), env: { GOOGLE_VERTEX_API_KEY: 'vx-key' } });
    expect(await say(reg)).toBe('hi there');
    expect(scripted().requests[0].path).toBe('/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(scripted().requests[0].headers['x-goog-api-key']).toBe('vx-key');
    expect(scripted().requests[0].headers.authorization).toBeUndefined();
  });

  it('says what Gemini on Vertex needs when the person has no Application Default Credentials, and sends nothing', async () => {
    const names = ['METADATA_SERVER_DETECTION', 'GOOGLE_APPLICATION_CREDENTIALS', 'CLOUDSDK_CONFIG'] as const;
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    const gcloud = mkdtempSync(join(tmpdir(), 'keel-gcloud-'));
    // No credentials file, no gcloud login, and no metadata server to ask.
    process.env.METADATA_SERVER_DETECTION = 'none';
    delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
    process.env.CLOUDSDK_CONFIG = gcloud;
    try {
      scripted().load({ turns: [] });
      const reg = new ModelRegistry({ config: config({ model: 'vertex/gemini-2.5-pro', providers: { vertex: { baseURL: scripted().url, project: 'p', region: 'us-central1' } } }), env: {} });
      const model = reg.resolve('model').model as LanguageModelSpec;
      await expect(model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })).rejects.toThrow(/Vertex AI needs Application Default Credentials \(gcloud auth application-default login/);
      expect(scripted().requests).toHaveLength(0);
    } finally {
      for (const n of names) {
        if (saved[n] === undefined) delete process.env[n];
        else process.env[n] = saved[n];
      }
      rmSync(gcloud, { recursive: true, force: true });
    }
  });
});

describe('Azure OpenAI', () => {
  it('finds the resource from AZURE_RESOURCE_NAME, and names it when nothing says which', () => {
    const reg = new ModelRegistry({ config: config({ model: 'azure/my-deployment' }), env: { AZURE_RESOURCE_NAME: 'contoso', AZURE_API_KEY: 'az' } });
    expect(reg.resolve('model').model).toBeInstanceOf(LeanLanguageModel);
    const none = new ModelRegistry({ config: config({ model: 'azure/my-deployment', providers: { azure: { preset: 'azure' } } }), env: {} });
    expect(() => none.resolve('model')).toThrow(/AZURE_RESOURCE_NAME|AZURE_API_KEY/);
  });

  it('pairs a key stored with "Set API Key" with the resource AZURE_RESOURCE_NAME names, and uses it there', () => {
    const env = { AZURE_RESOURCE_NAME: 'contoso' };
    const origin = keyOriginFor('azure', {}, undefined, env);
    expect(origin).toBe('https://contoso.openai.azure.com');
    const stored = new ModelRegistry({ config: config({ model: 'azure/my-deployment' }), env, apiKeys: { azure: { key: 'az-stored', origin } } });
    expect(stored.resolve('model').model).toBeInstanceOf(LeanLanguageModel);
    // The same key paired with another resource is not sent to this one.
    const elsewhere = new ModelRegistry({ config: config({ model: 'azure/my-deployment' }), env: { AZURE_RESOURCE_NAME: 'fabrikam' }, apiKeys: { azure: { key: 'az-stored', origin } } });
    expect(() => elsewhere.resolve('model')).toThrow(/AZURE_API_KEY/);
  });
});

describe('a workspace', () => {
  it('can set neither a region, a project nor an AWS profile', () => {
    const person = { config: config({ providers: { bedrock: { region: 'us-east-1' }, vertex: { project: 'mine' } } }), providers: new Set(['bedrock', 'vertex']), sources: [] };
    const { layer, warnings } = narrowWorkspaceLayer(
      { origin: '/ws/.keel/config.json', layer: { providers: { bedrock: { region: 'eu-west-1', profile: 'admin' }, vertex: { project: 'theirs', api: 'vertex' } } } },
      person,
    );
    expect(layer.providers).toBeUndefined();
    for (const key of ['bedrock.region', 'bedrock.profile', 'vertex.project', 'vertex.api']) expect(warnings.join('\n')).toContain(`providers.${key}`);
  });
});

describe('the catalogue', () => {
  it('knows Claude by its Bedrock and Vertex ids, and Gemini’s prices', () => {
    expect(catalogueEntry('bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0')?.price.input).toBe(3);
    expect(catalogueEntry('vertex/claude-opus-4-1@20250805')?.price.input).toBe(15);
    expect(catalogueEntry('google/gemini-2.5-flash')?.price).toEqual({ input: 0.3, cachedInput: 0.03, output: 2.5 });
    expect(catalogueEntry('bedrock/amazon.nova-pro-v1:0')).toBeUndefined();
  });
});
