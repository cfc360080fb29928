import * as l10n from '@vscode/l10n';
import { KeelError } from '../errors';
import type { KeelConfig } from '../config/configSchema';
import { presetNames } from './presetNames';

export interface ModelRef {
  provider: string;
  modelId: string;
}

/** Names of providers Keel knows without configuration: the presets. */
export const builtinProviders: readonly string[] = presetNames;

/**
 * Turns `alias`, `provider/model` or a bare `model` into a provider and the model id that
 * provider knows. Only a known provider name counts as a prefix, so ids that contain
 * slashes themselves (`openrouter/meta-llama/llama-3`) keep them. `sourceProviders`: names of
 * model sources added by plugins or the host (`vscode-lm`), known like configured ones.
 */
export function parseModelRef(ref: string, config: KeelConfig, sourceProviders: readonly string[] = []): ModelRef {
  const seen = new Set<string>();
  let id = ref.trim();
  while (config.modelAliases[id] !== undefined) {
    if (seen.has(id)) throw new KeelError('config', l10n.t('Model alias loop: {0}', [...seen, id].join(' → ')));
    seen.add(id);
    id = config.modelAliases[id];
  }
  if (id === '') throw new KeelError('model_not_configured', l10n.t('The model id is empty.'));
  const known = new Set<string>([...builtinProviders, ...Object.keys(config.providers), ...sourceProviders]);
  const slash = id.indexOf('/');
  if (slash > 0 && known.has(id.slice(0, slash))) {
    return { provider: id.slice(0, slash), modelId: id.slice(slash + 1) };
  }
  const configured = Object.keys(config.providers);
  const provider = configured.length === 1 ? configured[0] : 'openai';
  return { provider, modelId: id };
}
