import type { CallOptions, LanguageModelSpec } from '../wire/modelSpec';
import { withCacheBreakpoints } from '../wire/cacheBreakpoints';
import { importSdk, LazySdkModel, noRedirects } from './lazySdkModel';

/** AWS credentials as the SDK signs with them. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * Where a Bedrock model's credentials come from, all of it the person's own: a Bedrock API key
 * (bearer token), keys in the environment, or the AWS credential chain over their shared
 * config and credentials files (a profile, SSO, credential_process, web identity, instance roles).
 */
export interface BedrockAuth {
  apiKey?: string;
  keys?: AwsCredentials;
  profile?: string;
  /** AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE, when the environment moves them. */
  credentialsFile?: string;
  configFile?: string;
}

export interface BedrockEndpoint {
  /** The runtime endpoint, e.g. `https://bedrock-runtime.us-east-1.amazonaws.com`. */
  baseURL: string;
  region: string;
  auth: BedrockAuth;
  headers?: Record<string, string>;
}

type BedrockSdk = typeof import('./bedrockSdk');

export function bedrockOrigin(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** Claude and Nova models on Bedrock take prompt-cache points; others reject them. */
export function bedrockCaches(modelId: string): boolean {
  return /anthropic\.claude|amazon\.nova/i.test(modelId);
}

const cachePoint = { cachePoint: { type: 'default' } };

/**
 * A model on Amazon Bedrock's Converse API through the AI SDK's Bedrock provider, loaded on the
 * first call with the AWS credential chain. Requests are signed (SigV4) with the person's
 * credentials, or carry their Bedrock API key; Keel places cache points where Anthropic's
 * breakpoints go, for the models that take them.
 */
export class BedrockModel extends LazySdkModel {
  readonly supportedUrls: Record<string, RegExp[]> = {};

  constructor(
    provider: string,
    modelId: string,
    private readonly endpoint: BedrockEndpoint,
  ) {
    super(`${provider}.bedrock`, modelId);
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createAmazonBedrock, defaultProvider } = await importSdk<BedrockSdk>('bedrockSdk');
    const { auth, region } = this.endpoint;
    const chain = auth.keys
      ? undefined
      : defaultProvider({ profile: auth.profile, filepath: auth.credentialsFile, configFilepath: auth.configFile });
    const sdk = createAmazonBedrock({
      region,
      baseURL: this.endpoint.baseURL.replace(/\/+$/, ''),
      headers: this.endpoint.headers,
      fetch: noRedirects,
      // An empty key keeps the SDK from reading AWS_BEARER_TOKEN_BEDROCK itself, past Keel's pairing rule.
      apiKey: auth.apiKey ?? '',
      credentialProvider: async () => auth.keys ?? (await chain!()),
    });
    return sdk.languageModel(this.modelId) as LanguageModelSpec;
  }

  protected override prepare(options: CallOptions): CallOptions {
    return bedrockCaches(this.modelId) ? withCacheBreakpoints(options, 'bedrock', cachePoint) : options;
  }
}
