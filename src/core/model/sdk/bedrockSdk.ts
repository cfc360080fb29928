/*
 * The one place that imports AWS's credential chain (environment, shared config and credentials
 * files with profiles, SSO, credential_process, web identity, container and instance metadata)
 * and the SigV4 signer. Loaded only when a model of a `bedrock` provider sends its first
 * request (see bedrockModel.ts); `dist/bedrockSdk.js`.
 */
export { defaultProvider } from '@aws-sdk/credential-provider-node';
export { AwsV4Signer } from 'aws4fetch';
