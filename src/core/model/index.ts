// The model subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { originOf, providerOrigin } from './keyOrigin';
export type { PairedKey } from './keyOrigin';
export type { ProviderFactory, ResolvedModel, SourceModel } from './modelRegistry';
export { isPresetName, presetNames } from './presetNames';
export type { PresetName } from './presetNames';
export { effectiveProvider, providerPresets } from './providerPresets';
export type { CallOptions, FunctionTool, GenerateResult, LanguageModelSpec, Prompt, PromptMessage, StreamPart, StreamResult } from './wire/modelSpec';
export { reasoningChoices } from './reasoning';
export type { ReasoningChoice, ReasoningLevel, ReasoningSupport } from './reasoning';
export type { ModelReasoning } from './modelRegistry';
