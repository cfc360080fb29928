import { catalogueEntry } from './modelCatalogue';

/** Context windows of model families the catalogue does not list model by model. */
const windows: Array<[RegExp, number]> = [
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o/, 128_000],
  [/^o[134]/, 200_000],
  [/^deepseek/, 128_000],
  [/claude/, 200_000],
  [/gemini/, 1_000_000],
  [/qwen2\.5-coder/, 32_768],
  [/llama-?3/, 128_000],
];

/**
 * A model's context window when the person's config is silent, for the context meter and
 * compaction: the catalogue's for a model it lists, else its family's; undefined when unknown
 * (then nothing compacts before a request, only after the provider says it is too long).
 */
export function knownContextWindow(modelId: string): number | undefined {
  const listed = catalogueEntry(modelId)?.contextWindow;
  if (listed) return listed;
  const bare = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  return windows.find(([re]) => re.test(bare))?.[1];
}
