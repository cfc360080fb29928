/** Context windows of widely used models, for the context meter and compaction when config is silent. */
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

export function knownContextWindow(modelId: string): number | undefined {
  const bare = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  return windows.find(([re]) => re.test(bare))?.[1];
}
