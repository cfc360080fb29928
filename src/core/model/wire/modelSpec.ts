import type { LanguageModel } from 'ai';

/*
 * The AI SDK's language model specification as `ai` 7 uses it (v4), derived from the types
 * `ai` exports, so core needs no direct dependency on @ai-sdk/provider. Every model source
 * (Keel's own wires, the SDK's providers, vscode.lm, plugins) meets the loop at this shape.
 */
export type LanguageModelSpec = Extract<LanguageModel, { specificationVersion: 'v4' }>;
export type CallOptions = Parameters<LanguageModelSpec['doStream']>[0];
export type Prompt = CallOptions['prompt'];
export type PromptMessage = Prompt[number];
export type StreamResult = Awaited<ReturnType<LanguageModelSpec['doStream']>>;
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
export type GenerateResult = Awaited<ReturnType<LanguageModelSpec['doGenerate']>>;
export type FunctionTool = Extract<NonNullable<CallOptions['tools']>[number], { type: 'function' }>;
export type FinishPart = Extract<StreamPart, { type: 'finish' }>;
export type Usage = FinishPart['usage'];
export type FinishReason = FinishPart['finishReason'];
export type Warning = Extract<StreamPart, { type: 'stream-start' }>['warnings'][number];
export type ToolResultOutput = Extract<PromptMessage, { role: 'tool' }>['content'][number] extends infer P
  ? P extends { type: 'tool-result'; output: infer O }
    ? O
    : never
  : never;
