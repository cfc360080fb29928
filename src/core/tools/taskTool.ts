import * as z from 'zod';
import type { AgentFile } from '../setup/agentFiles';
import { renderAgentList } from '../setup/agentFiles';
import type { SubagentOutcome, SubagentTask } from '../subagents/runSubagent';
import { defineTool, errorResult, textResult } from './tool';
import type { AnyTool } from './tool';
import { oneLine } from './toolPresentation';

const inputSchema = z.object({
  description: z.string().min(1).describe('A few words saying what the subtask is (shown to the person).'),
  prompt: z.string().min(1).describe('The whole subtask: the subagent sees nothing of this conversation but this.'),
  agent: z.string().optional().describe('The name of an agent listed in this tool\'s description; absent: a general agent with the read-only tools.'),
});

export type TaskInput = z.infer<typeof inputSchema>;

function field(input: unknown, key: string): string {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? oneLine(value) : '';
}

/**
 * The `task` tool: hands a subtask to a fresh conversation (a named agent or a general one)
 * and returns its final answer. `agents`: the definitions found when the run started, whose
 * names and descriptions are the tool's description (fixed for the conversation's requests).
 * `run`: the parent run's subagent runner. The tool itself only reads; what the subagent does
 * goes through the person's approvals call by call, so several task calls of one turn run in
 * parallel.
 */
export function createTaskTool(agents: readonly AgentFile[], run: (task: Omit<SubagentTask, 'signal'>, signal: AbortSignal) => Promise<SubagentOutcome>): AnyTool {
  const list = renderAgentList(agents);
  return defineTool<TaskInput>({
    name: 'task',
    description: [
      'Hands a subtask to a subagent: a fresh conversation with its own context, which works with its own tools and returns only its final answer. Use it for self-contained searches, reviews or changes whose steps would crowd this conversation; several task calls in one turn run in parallel. Give it everything it needs in the prompt.',
      list ? `Agents (pass one as "agent"; without one, a general agent that only reads):\n${list}` : 'Without "agent", a general agent that only reads.',
    ].join('\n\n'),
    category: 'read',
    present: (input) => {
      const agent = field(input, 'agent') || 'general';
      return {
        title: `task · ${agent}`,
        summary: field(input, 'description'),
        icon: 'organization',
        details: { kind: 'keyValue', entries: [{ key: 'agent', value: agent }, { key: 'prompt', value: field(input, 'prompt') }] },
      };
    },
    inputSchema,
    async execute(input, tctx) {
      let agent: AgentFile | undefined;
      if (input.agent !== undefined && input.agent.trim() !== '' && input.agent.trim().toLowerCase() !== 'general') {
        agent = agents.find((a) => a.name === input.agent!.trim().toLowerCase());
        if (!agent) return errorResult(`No agent is named "${input.agent}". Agents: ${agents.map((a) => a.name).join(', ') || '(none)'}.`);
      }
      const outcome = await run({ parentToolCallId: tctx.toolCallId, prompt: input.prompt, ...(agent ? { agent } : {}) }, tctx.signal);
      if (outcome.status === 'error') return errorResult(`The subagent failed: ${outcome.error ?? 'unknown error'}.`);
      if (outcome.status === 'cancelled') return errorResult('The subagent was stopped.');
      const note = outcome.status === 'max_turns' ? '\n\n(The subagent reached its turn limit before it finished.)' : '';
      return textResult((outcome.text.trim() || '(The subagent gave no answer.)') + note);
    },
  });
}
