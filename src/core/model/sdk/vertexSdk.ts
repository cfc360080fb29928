/*
 * The one place that imports the AI SDK's Vertex Anthropic provider (Claude models on Vertex)
 * and with it google-auth-library (Application Default Credentials). Loaded only when a Claude
 * model of a `vertex` provider streams (see vertexModel.ts); `dist/vertexSdk.js`. Gemini models
 * on Vertex are on Keel's own wire.
 */
export { createGoogleVertexAnthropic } from '@ai-sdk/google-vertex/anthropic';
