import * as l10n from '@vscode/l10n';
import { useEffect, useState } from 'react';
import type { ModelInfo } from '../../../src/protocol/uiConfig';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Select } from '../../ui/Select';
import type { SelectOption } from '../../ui/Select';

/** The models the endpoint offers; choosing one is `config.set model` (the person's choice). */
export function ModelPicker() {
  const bridge = useBridge();
  const model = useMeta((meta) => meta.run.model);
  const config = useMeta((meta) => meta.config);
  const [models, setModels] = useState<readonly ModelInfo[]>([]);

  // Ask again when the configuration changes (a key was set, the endpoint moved).
  useEffect(() => {
    if (!config.modelConfigured) return undefined;
    let current = true;
    void bridge.call('models.list', {}).then((listed) => {
      if (current && listed) setModels(listed.models);
    });
    return () => {
      current = false;
    };
  }, [bridge, config]);

  const options: SelectOption[] = models.map((info) => ({ value: info.id, label: info.label ?? info.id }));
  // Until the list arrives, the model in use by the name the person gave it (custom/ is Keel's prefix for keel.baseUrl).
  if (model && !options.some((option) => option.value === model)) options.unshift({ value: model, label: model.replace(/^custom\//, '') });
  if (options.length === 0) options.push({ value: '', label: l10n.t('No model') });

  return (
    <Select
      value={model ?? ''}
      options={options}
      label={l10n.t('Model')}
      testId="model-picker"
      disabled={!model && models.length === 0}
      onChange={(value) => {
        if (value && value !== model) void bridge.call('config.set', { key: 'model', value });
      }}
    />
  );
}
