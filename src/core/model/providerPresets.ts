import type { ProviderApi, ProviderConfig } from '../config/configSchema';
import { isPresetName } from './presetNames';
import type { PresetName } from './presetNames';


export interface ProviderPreset {
  label: string;
  /** Absent for OpenAI (the SDK knows its endpoint) and where it depends on a region or resource (Vertex, Bedrock, Azure). */
  baseURL?: string;
  api: ProviderApi;
  apiKeyEnv?: string;
  /** Local servers answer without a key. */
  needsKey: boolean;
}

/**
 * Common endpoints, so a person only states what differs (a key, or a base URL for a server
 * on another port). A provider named after a preset gets it without saying `preset`.
 */
export const providerPresets: Record<PresetName, ProviderPreset> = {
  openai: { label: 'OpenAI', api: 'chat', apiKeyEnv: 'OPENAI_API_KEY', needsKey: true },
  deepseek: { label: 'DeepSeek', baseURL: 'https://api.deepseek.com/v1', api: 'chat', apiKeyEnv: 'DEEPSEEK_API_KEY', needsKey: true },
  openrouter: { label: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1', api: 'chat', apiKeyEnv: 'OPENROUTER_API_KEY', needsKey: true },
  ollama: { label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', api: 'chat', needsKey: false },
  lmstudio: { label: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', api: 'chat', needsKey: false },
  vllm: { label: 'vLLM', baseURL: 'http://127.0.0.1:8000/v1', api: 'chat', apiKeyEnv: 'VLLM_API_KEY', needsKey: false },
  anthropic: { label: 'Anthropic', baseURL: 'https://api.anthropic.com/v1', api: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', needsKey: true },
  groq: { label: 'Groq', baseURL: 'https://api.groq.com/openai/v1', api: 'chat', apiKeyEnv: 'GROQ_API_KEY', needsKey: true },
  together: { label: 'Together AI', baseURL: 'https://api.together.xyz/v1', api: 'chat', apiKeyEnv: 'TOGETHER_API_KEY', needsKey: true },
  fireworks: { label: 'Fireworks AI', baseURL: 'https://api.fireworks.ai/inference/v1', api: 'chat', apiKeyEnv: 'FIREWORKS_API_KEY', needsKey: true },
  mistral: { label: 'Mistral', baseURL: 'https://api.mistral.ai/v1', api: 'chat', apiKeyEnv: 'MISTRAL_API_KEY', needsKey: true },
  xai: { label: 'xAI', baseURL: 'https://api.x.ai/v1', api: 'chat', apiKeyEnv: 'XAI_API_KEY', needsKey: true },
  cerebras: { label: 'Cerebras', baseURL: 'https://api.cerebras.ai/v1', api: 'chat', apiKeyEnv: 'CEREBRAS_API_KEY', needsKey: true },
  dashscope: { label: 'DashScope (Qwen)', baseURL: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1', api: 'chat', apiKeyEnv: 'DASHSCOPE_API_KEY', needsKey: true },
  moonshot: { label: 'Moonshot (Kimi)', baseURL: 'https://api.moonshot.ai/v1', api: 'chat', apiKeyEnv: 'MOONSHOT_API_KEY', needsKey: true },
  zhipu: { label: 'Zhipu (GLM)', baseURL: 'https://open.bigmodel.cn/api/paas/v4', api: 'chat', apiKeyEnv: 'ZHIPU_API_KEY', needsKey: true },
  siliconflow: { label: 'SiliconFlow', baseURL: 'https://api.siliconflow.cn/v1', api: 'chat', apiKeyEnv: 'SILICONFLOW_API_KEY', needsKey: true },
  litellm: { label: 'LiteLLM proxy', baseURL: 'http://127.0.0.1:4000/v1', api: 'chat', apiKeyEnv: 'LITELLM_API_KEY', needsKey: false },
  google: { label: 'Google Gemini', baseURL: 'https://generativelanguage.googleapis.com/v1beta', api: 'gemini', apiKeyEnv: 'GOOGLE_GENERATIVE_AI_API_KEY', needsKey: true },
  // Application Default Credentials; a key (express mode) is optional.
  vertex: { label: 'Google Vertex AI', api: 'vertex', apiKeyEnv: 'GOOGLE_VERTEX_API_KEY', needsKey: false },
  // The AWS credential chain; a Bedrock API key is optional.
  bedrock: { label: 'Amazon Bedrock', api: 'bedrock', apiKeyEnv: 'AWS_BEARER_TOKEN_BEDROCK', needsKey: false },
  azure: { label: 'Azure OpenAI', api: 'azure', apiKeyEnv: 'AZURE_API_KEY', needsKey: true },
};


/** A provider as the registry uses it: its preset's defaults under what the config says. */
export interface EffectiveProvider extends ProviderConfig {
  /** Whether a request without a key is an error worth stopping for before it is sent. */
  needsKey: boolean;
}

export function effectiveProvider(name: string, config: ProviderConfig | undefined): EffectiveProvider | undefined {
  const presetName = config?.preset ?? (isPresetName(name) ? name : undefined);
  if (!presetName) return config ? { ...config, needsKey: !config.baseURL } : undefined;
  const preset = providerPresets[presetName];
  const merged: EffectiveProvider = { api: preset.api, needsKey: preset.needsKey, ...config };
  if (merged.baseURL === undefined && preset.baseURL !== undefined) merged.baseURL = preset.baseURL;
  if (merged.apiKeyEnv === undefined && preset.apiKeyEnv !== undefined) merged.apiKeyEnv = preset.apiKeyEnv;
  // A preset's key rule holds for its own endpoint; pointed elsewhere, a base URL alone is enough.
  if (config?.baseURL !== undefined && config.baseURL !== preset.baseURL) merged.needsKey = false;
  return merged;
}
