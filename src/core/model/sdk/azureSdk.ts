/*
 * The one place that imports the AI SDK's Azure OpenAI provider. Loaded only when a model of an
 * `azure` provider streams (see azureModel.ts); `dist/azureSdk.js`.
 */
export { createAzure } from '@ai-sdk/azure';
