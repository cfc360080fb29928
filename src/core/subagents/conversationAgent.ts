import * as l10n from '@vscode/l10n';
import { KeelError } from '../errors';
import type { AgentFile } from '../setup/agentFiles';
import { keelToolNames } from '../setup/commandFiles';

/** The agent a run works as, by name; an unknown name is the person's mistake, said with the names there are. */
export async function chosenAgent(agents: () => Promise<AgentFile[]>, name: string): Promise<AgentFile> {
  const all = await agents();
  const agent = all.find((a) => a.name === name.trim().toLowerCase());
  if (agent) return agent;
  throw new KeelError('usage', l10n.t('No agent is named "{0}". Agents: {1}.', name, all.map((a) => a.name).join(', ') || l10n.t('(none)')));
}

/**
 * The tools a run working as `agent` is offered: those of `offered` its `tools:` names, or all
 * of them when it names none Keel knows (as Claude Code reads an agent without `tools`). Only
 * ever a subset: approvals stay the person's.
 */
export function conversationAgentTools<T extends { name: string }>(offered: readonly T[], agent: AgentFile): T[] {
  const wanted = keelToolNames(agent.tools);
  if (wanted.size === 0) return [...offered];
  return offered.filter((t) => wanted.has(t.name));
}

/** The mode's system prompt with the agent's own after it. */
export function agentSystemPrompt(system: string, agent: AgentFile): string {
  return `${system}\n\nYou work as the "${agent.name}" agent (${agent.display}):\n\n${agent.prompt}`;
}
