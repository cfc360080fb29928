import * as l10n from '@vscode/l10n';
import type { LanguageModel } from 'ai';
import { KeelError } from '../errors';
import type { ProviderApi, ProviderConfig } from '../config/configSchema';
import { isVertexAnthropic, vertexClaudeModel, vertexGeminiModel, vertexOrigin } from './sdk/vertexModel';
import { bedrockOrigin, BedrockModel } from './sdk/bedrockModel';
import type { BedrockAuth } from './sdk/bedrockModel';
import { leanGeminiModel, leanMessagesModel, leanResponsesModel } from './wire/leanModels';
import { catalogueEntry } from './modelCatalogue';
import { awsProfileRegion } from './awsProfileRegion';

type Env = Record<string, string | undefined>;

/**
 * The APIs with a provider kind of their own: Claude on Vertex and Bedrock through the AI SDK's
 * providers (each loaded when first used), Anthropic and Gemini (the Gemini API's and Vertex's)
 * on Keel's own Messages and generateContent wires, Azure OpenAI on Keel's own Responses wire.
 */
export type SdkApi = Exclude<ProviderApi, 'chat' | 'responses'>;

export function isSdkApi(api: ProviderApi | undefined): api is SdkApi {
  return api !== undefined && api !== 'chat' && api !== 'responses';
}

const firstOf = (env: Env, names: string[]): string | undefined => names.map((n) => env[n]?.trim()).find((v) => v);

/** Vertex's location: the provider's `region`, else the environment's. */
const vertexLocation = (pconf: ProviderConfig, env: Env) => pconf.region ?? firstOf(env, ['GOOGLE_VERTEX_LOCATION', 'GOOGLE_CLOUD_LOCATION']);
/** Bedrock's region: the provider's `region`, else the environment's, else the person's AWS profile's (`~/.aws/config`). */
const awsRegion = (pconf: ProviderConfig, env: Env) =>
  pconf.region ?? firstOf(env, ['AWS_REGION', 'AWS_DEFAULT_REGION']) ?? awsProfileRegion(env, pconf.profile ?? firstOf(env, ['AWS_PROFILE']));

function missing(provider: string, what: string, how: string): KeelError {
  return new KeelError('config', l10n.t('Provider "{0}" needs {1}: {2}.', provider, what, how));
}

/**
 * Where an SDK provider's requests go when its config names no base URL: Vertex's and Bedrock's
 * regional endpoints, an Azure resource's from AZURE_RESOURCE_NAME (all from the person's own
 * config or environment). Undefined where the preset has a fixed one or nothing says where.
 */
export function sdkDefaultBaseURL(api: ProviderApi | undefined, pconf: ProviderConfig, env: Env): string | undefined {
  if (api === 'vertex') {
    const location = vertexLocation(pconf, env);
    return location ? vertexOrigin(location) : 'https://aiplatform.googleapis.com';
  }
  if (api === 'bedrock') {
    const region = awsRegion(pconf, env);
    return region ? bedrockOrigin(region) : undefined;
  }
  if (api === 'azure') {
    const resource = firstOf(env, ['AZURE_RESOURCE_NAME']);
    return resource ? `https://${resource}.openai.azure.com/openai` : undefined;
  }
  return undefined;
}

/** AWS credentials from the person's environment: keys if set, else the chain's profile and files. */
function bedrockAuth(pconf: ProviderConfig, env: Env, apiKey: string | undefined): BedrockAuth {
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  const sessionToken = env.AWS_SESSION_TOKEN?.trim() || undefined;
  return {
    apiKey,
    keys: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, sessionToken } : undefined,
    profile: pconf.profile ?? firstOf(env, ['AWS_PROFILE']),
    credentialsFile: firstOf(env, ['AWS_SHARED_CREDENTIALS_FILE']),
    configFile: firstOf(env, ['AWS_CONFIG_FILE']),
  };
}

/** A model of an API Keel reaches through the AI SDK's providers; `baseURL` is already resolved. */
export function createSdkModel(
  api: SdkApi,
  provider: string,
  modelId: string,
  endpoint: { baseURL: string | undefined; apiKey?: string; headers?: Record<string, string> },
  pconf: ProviderConfig,
  env: Env,
): LanguageModel {
  const { baseURL, apiKey, headers } = endpoint;
  if (api === 'azure' && !baseURL) {
    throw missing(provider, l10n.t('the Azure OpenAI resource'), l10n.t('set AZURE_RESOURCE_NAME, or "baseURL": "https://<resource>.openai.azure.com/openai" in its config'));
  }
  if (api === 'bedrock' && (!baseURL || !awsRegion(pconf, env))) throw missing(provider, l10n.t('an AWS region'), l10n.t('set AWS_REGION, "region" in its config, or a region for your AWS profile in ~/.aws/config'));
  const base = baseURL ?? '';
  if (api === 'anthropic') return leanMessagesModel(provider, modelId, { baseURL: base, apiKey, headers }, catalogueEntry(modelId)?.maxOutputTokens);
  if (api === 'gemini') return leanGeminiModel(provider, modelId, { baseURL: base, apiKey, headers });
  if (api === 'azure') {
    // Azure's v1 API is OpenAI's Responses API under the resource's /openai/v1, the key in `api-key`.
    const keyed = apiKey ? { ...headers, 'api-key': apiKey } : headers;
    return leanResponsesModel(provider, modelId, { baseURL: `${base.replace(/\/+$/, '')}/v1`, headers: keyed });
  }
  if (api === 'bedrock') return new BedrockModel(provider, modelId, { baseURL: base, region: awsRegion(pconf, env)!, auth: bedrockAuth(pconf, env, apiKey), headers }, catalogueEntry(modelId)?.maxOutputTokens);
  const project = pconf.project ?? firstOf(env, ['GOOGLE_VERTEX_PROJECT', 'GOOGLE_CLOUD_PROJECT']);
  const location = vertexLocation(pconf, env);
  if (!apiKey && (!project || !location)) {
    throw missing(provider, l10n.t('a Google Cloud project and location'), l10n.t('set GOOGLE_VERTEX_PROJECT and GOOGLE_VERTEX_LOCATION, or "project" and "region" in its config'));
  }
  const vertex = { baseURL: base, project: project ?? '', location: location ?? 'global', apiKey, headers };
  return isVertexAnthropic(modelId) ? vertexClaudeModel(provider, modelId, vertex) : vertexGeminiModel(provider, modelId, vertex);
}
