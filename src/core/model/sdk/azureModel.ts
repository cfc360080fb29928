import type { LanguageModelSpec } from '../wire/modelSpec';
import { importSdk, LazySdkModel, noRedirects } from './lazySdkModel';

export interface AzureEndpoint {
  /** The resource's OpenAI endpoint, e.g. `https://my-resource.openai.azure.com/openai`. */
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

type AzureSdk = typeof import('./azureSdk');

/** `https://{resource}.openai.azure.com/openai`, the endpoint of an Azure OpenAI resource. */
export function azureBaseURL(resourceName: string): string {
  return `https://${resourceName}.openai.azure.com/openai`;
}

/**
 * A deployment on Azure OpenAI through the AI SDK's Azure provider, loaded on the first call:
 * the v1 Responses API at the resource's URL (`{baseURL}/v1/responses?api-version=v1`), the key
 * in Azure's `api-key` header. The model id is the deployment's name.
 */
export class AzureOpenAIModel extends LazySdkModel {
  readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https?:\/\/.*$/] };

  constructor(
    provider: string,
    modelId: string,
    private readonly endpoint: AzureEndpoint,
  ) {
    super(`${provider}.azure`, modelId);
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createAzure } = await importSdk<AzureSdk>('azureSdk');
    const sdk = createAzure({
      baseURL: this.endpoint.baseURL.replace(/\/+$/, ''),
      // Without a key the SDK would read AZURE_API_KEY itself, past Keel's pairing rule.
      apiKey: this.endpoint.apiKey ?? '',
      headers: this.endpoint.headers,
      fetch: noRedirects,
    });
    return sdk.responses(this.modelId) as LanguageModelSpec;
  }
}
