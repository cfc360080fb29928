/** The providers Keel knows the endpoints of (see providerPresets); the config schema accepts these names. */
export const presetNames = ['openai', 'deepseek', 'openrouter', 'ollama', 'lmstudio', 'vllm', 'anthropic', 'groq', 'together', 'fireworks', 'mistral', 'xai', 'cerebras', 'dashscope', 'moonshot', 'zhipu', 'siliconflow', 'litellm', 'google', 'vertex', 'bedrock', 'azure'] as const;
export type PresetName = (typeof presetNames)[number];

export function isPresetName(name: string): name is PresetName {
  return (presetNames as readonly string[]).includes(name);
}
