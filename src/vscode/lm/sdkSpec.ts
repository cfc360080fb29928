import type { LanguageModel } from 'ai';

/*
 * The AI SDK's language model specification as `ai` 7 uses it (v4), derived from the types
 * `ai` itself exports, so Keel needs no direct dependency on @ai-sdk/provider.
 */
export type LanguageModelSpec = Extract<LanguageModel, { specificationVersion: 'v4' }>;
export type CallOptions = Parameters<LanguageModelSpec['doStream']>[0];
export type Prompt = CallOptions['prompt'];
export type PromptMessage = Prompt[number];
export type StreamResult = Awaited<ReturnType<LanguageModelSpec['doStream']>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
export type GenerateResult = Awaited<ReturnType<LanguageModelSpec['doGenerate']>>;
export type FunctionTool = Extract<NonNullable<CallOptions['tools']>[number], { type: 'function' }>;
