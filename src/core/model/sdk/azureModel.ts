import type { LanguageModelSpec } from '../wire/modelSpec';
import { importSdk, keyedSettings, LazySdkModel } from './lazySdkModel';
import type { KeyedEndpoint } from './lazySdkModel';

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
    private readonly endpoint: KeyedEndpoint,
  ) {
    super(`${provider}.azure`, modelId);
  }

  protected async create(): Promise<LanguageModelSpec> {
    const { createAzure } = await importSdk<AzureSdk>('azureSdk');
    const sdk = createAzure(keyedSettings(this.endpoint));
    return sdk.responses(this.modelId) as LanguageModelSpec;
  }
}
