/*
 * The one place that imports the AI SDK's Anthropic provider. Keel loads this module only when
 * a model of an `anthropic` provider streams (see anthropicModel.ts); the production build
 * makes it a file of its own (`dist/anthropicSdk.js`), so startup never parses it.
 */
export { createAnthropic } from '@ai-sdk/anthropic';
