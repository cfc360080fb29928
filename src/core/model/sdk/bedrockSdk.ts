/*
 * The one place that imports the AI SDK's Amazon Bedrock provider and the AWS SDK's credential
 * chain (environment, shared config and credentials files with profiles, SSO, credential_process,
 * web identity, container and instance metadata). Loaded only when a model of a `bedrock`
 * provider streams (see bedrockModel.ts); `dist/bedrockSdk.js`.
 */
export { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
export { defaultProvider } from '@aws-sdk/credential-provider-node';
