import { withCacheBreakpoints } from '../wire/cacheBreakpoints';
import { readConverseEvents, converseParser } from '../wire/converseParser';
import { converseRequest } from '../wire/converseRequest';
import { LeanLanguageModel } from '../wire/leanLanguageModel';
import type { Wire } from '../wire/wire';
import { importSdk } from './sdkLoader';

/** AWS credentials as requests are signed with them. */
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
 * Signs requests with SigV4 (aws4fetch's signer) using the person's keys, or the AWS credential
 * chain over their own files; both load with `dist/bedrockSdk.js` on the first request.
 */
function sigV4(region: string, auth: BedrockAuth): NonNullable<WireEndpointSign> {
  let loaded: Promise<{ sdk: BedrockSdk; credentials: () => Promise<AwsCredentials> }> | undefined;
  const load = () =>
    (loaded ??= importSdk<BedrockSdk>('bedrockSdk').then((sdk) => {
      const keys = auth.keys;
      if (keys) return { sdk, credentials: async () => keys };
      const chain = sdk.defaultProvider({ profile: auth.profile, filepath: auth.credentialsFile, configFilepath: auth.configFile });
      return { sdk, credentials: () => chain() };
    }));
  return async (url, headers, payload) => {
    const { sdk, credentials } = await load();
    let creds: AwsCredentials;
    try {
      creds = await credentials();
    } catch (err) {
      loaded = undefined;
      throw new Error(`No AWS credentials for Bedrock: ${err instanceof Error ? err.message : String(err)}. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile ("profile" or AWS_PROFILE), or AWS_BEARER_TOKEN_BEDROCK.`);
    }
    const signer = new sdk.AwsV4Signer({
      url: url.href,
      method: 'POST',
      headers: Object.entries(headers),
      body: payload,
      region,
      service: 'bedrock',
      accessKeyId: creds.accessKeyId,
      secretAccessKey: creds.secretAccessKey,
      sessionToken: creds.sessionToken,
    });
    const signed = await signer.sign();
    const out: Record<string, string> = {};
    signed.headers.forEach((value, name) => {
      if (headers[name] === undefined) out[name] = value;
    });
    return out;
  };
}

type WireEndpointSign = ConstructorParameters<typeof LeanLanguageModel>[3]['sign'];

/**
 * A model on Amazon Bedrock's Converse API (ConverseStream, AWS's event stream) on Keel's own
 * wire. Requests carry the person's Bedrock API key, or are signed (SigV4) with their
 * credentials; Keel places cache points where Anthropic's breakpoints go, for the models that
 * take them. `maxOutput` is the model's output limit when the catalogue knows it.
 */
export class BedrockModel extends LeanLanguageModel {
  constructor(provider: string, modelId: string, endpoint: BedrockEndpoint, maxOutput: number | undefined) {
    const caches = bedrockCaches(modelId);
    const wire: Wire = {
      request: (id, options) => converseRequest(id, caches ? withCacheBreakpoints(options, 'bedrock', cachePoint) : options, maxOutput),
      parser: converseParser,
      read: readConverseEvents,
    };
    const { auth } = endpoint;
    super(
      `${provider}.bedrock`,
      modelId,
      wire,
      {
        baseURL: endpoint.baseURL.replace(/\/+$/, ''),
        headers: { accept: 'application/vnd.amazon.eventstream', ...endpoint.headers },
        ...(auth.apiKey ? { apiKey: auth.apiKey } : { sign: sigV4(endpoint.region, auth) }),
      },
      {},
    );
  }
}
