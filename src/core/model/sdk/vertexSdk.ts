/*
 * The one place that imports the AI SDK's Google Vertex providers (Gemini, and Anthropic's models
 * on Vertex) and with them google-auth-library (Application Default Credentials). Loaded only
 * when a model of a `vertex` provider streams (see vertexModel.ts); `dist/vertexSdk.js`.
 */
export { createGoogleVertex } from '@ai-sdk/google-vertex';
export { createGoogleVertexAnthropic } from '@ai-sdk/google-vertex/anthropic';
