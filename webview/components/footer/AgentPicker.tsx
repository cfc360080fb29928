import * as l10n from '@vscode/l10n';
import { useBridge } from '../../bridge/bridgeContext';
import { useMeta } from '../../store/storeHooks';
import { Select } from '../../ui/Select';

/**
 * The agent the conversation works as: Keel's own or one of the custom agents (`.keel/agents`,
 * `.claude/agents`…), set the way "Use Agent…" sets it, from the next message on. Hidden when
 * there are no custom agents. Each agent's description is its option's tooltip, and the chosen
 * one's the picker's.
 */
export function AgentPicker() {
  const bridge = useBridge();
  const agent = useMeta((meta) => meta.run.agent);
  const agents = useMeta((meta) => meta.config.agents);
  if (!agents || agents.length === 0) return null;
  const options = [{ value: '', label: l10n.t('Keel (no agent)') }, ...agents.map((a) => ({ value: a.name, label: a.name, ...(a.description ? { description: a.description } : {}) }))];
  // An agent the conversation kept whose file is gone: shown as it is, so the picker does not lie.
  if (agent && !agents.some((a) => a.name === agent)) options.push({ value: agent, label: agent });
  const chosen = agents.find((a) => a.name === agent);
  const label = chosen
    ? l10n.t('Agent: {0} ({1})', chosen.name, chosen.description || l10n.t('no description'))
    : l10n.t("Agent: Keel's own prompt and all of its tools");
  return (
    <Select
      value={agent ?? ''}
      options={options}
      label={label}
      testId="agent-picker"
      onChange={(value) => {
        if (value !== (agent ?? '')) void bridge.call('agent.use', { name: value });
      }}
    />
  );
}
