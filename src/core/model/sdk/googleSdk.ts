/*
 * The one place that imports the AI SDK's Google Generative AI (Gemini API) provider. Loaded
 * only when a model of a `gemini` provider streams (see geminiModel.ts); the production build
 * makes it a file of its own (`dist/googleSdk.js`).
 */
export { createGoogleGenerativeAI } from '@ai-sdk/google';
