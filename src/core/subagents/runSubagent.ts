import type { ModelMessage } from 'ai';
import type { Context } from '../context';
import { errorMessage } from '../errors';
import { runLoop } from '../loop/loop';
import type { LoopEvent, LoopToolCall, LoopStatus } from '../loop/loopTypes';
import type { SubagentStep } from '../projectTypes';
import type { ResolvedModel } from '../model/modelRegistry';
import { runCallSettings } from '../model/reasoning';
import type { TokenUsage } from '../model/tokenUsage';
import { toolSpecs } from '../runRequest';
import { subagentTools } from '../setup/agentFiles';
import type { AgentFile } from '../setup/agentFiles';
import { buildSystemPrompt } from '../systemPrompt';
import type { AnyTool, ToolResult } from '../tools/tool';

/** What a parent run lends its subagents. */
export interface SubagentParent {
  ctx: Context;
  /** The parent run's model: a subagent's unless its definition names one Keel knows. */
  model: ResolvedModel;
  /** The tools the parent run offers; a subagent gets a subset (see subagentTools). */
  offered: readonly AnyTool[];
  /** A call through the parent's pipeline: hooks, the person's approvals, the journal. */
  call(call: LoopToolCall): Promise<ToolResult>;
  maxTurns: number;
  /** One of the subagent's steps, tagged with the parent's task call. */
  onStep(parentToolCallId: string, agent: string, step: SubagentStep): void;
  /** A model call the subagent the `task` call `parentToolCallId` started made, to count into the parent's totals and onto its card. */
  onUsage(usage: TokenUsage, model: ResolvedModel, parentToolCallId: string): void;
}

export interface SubagentTask {
  /** The task tool call that started it. */
  parentToolCallId: string;
  prompt: string;
  agent?: AgentFile;
  signal: AbortSignal;
}

export interface SubagentOutcome {
  status: LoopStatus;
  text: string;
  turns: number;
  /** The tools it could use. */
  tools: string[];
  error?: string;
}

/**
 * Runs one subtask as a fresh conversation: the agent's prompt (or none) over the act prompt,
 * the task as its only user message, the tools the definition narrows to (read-only without
 * one). Its calls go through the parent's pipeline under ids of their own, so the person
 * approves them as any other; its usage is counted into the parent's.
 */
export async function runSubagent(parent: SubagentParent, task: SubagentTask): Promise<SubagentOutcome> {
  const { ctx } = parent;
  const tools = subagentTools(parent.offered, task.agent);
  const allowed = new Set(tools.map((t) => t.name));
  const model = subagentModel(parent, task.agent);
  const base = buildSystemPrompt({ mode: 'act', displayLanguage: ctx.host.displayLanguage, mcpInstructions: ctx.mcp.instructions() });
  const system = task.agent ? `${base}\n\nYou are the "${task.agent.name}" agent, working on a task another agent handed you. Your final message is all it gets back.\n\n${task.agent.prompt}` : `${base}\n\nYou work on a task another agent handed you. Your final message is all it gets back.`;
  const messages: ModelMessage[] = [{ role: 'user', content: task.prompt }];
  const result = await runLoop({
    model: model.model,
    system,
    messages,
    tools: toolSpecs(tools),
    maxTurns: parent.maxTurns,
    signal: task.signal,
    ...runCallSettings(model, ctx.config.reasoning),
    executeTool: async (call) => {
      if (!allowed.has(call.toolName)) {
        return { output: `Tool "${call.toolName}" is not available to this agent. Available: ${[...allowed].join(', ') || '(none)'}.`, isError: true };
      }
      return parent.call({ ...call, toolCallId: `${task.parentToolCallId}.${call.toolCallId}` });
    },
    onEvent: (e) => {
      if (e.type === 'usage') {
        const { type: _type, turn: _turn, ...tokens } = e;
        parent.onUsage(tokens, model, task.parentToolCallId);
      }
      const step = stepOf(e, task.parentToolCallId);
      if (step) parent.onStep(task.parentToolCallId, task.agent?.name ?? 'general', step);
    },
  });
  return {
    status: result.status,
    text: result.text,
    turns: result.turns,
    tools: [...allowed],
    ...(result.error ? { error: result.error.message } : {}),
  };
}

/** The definition's model when the registry knows it (`inherit`, or a name from another tool, keeps the parent's). */
function subagentModel(parent: SubagentParent, agent: AgentFile | undefined): ResolvedModel {
  if (!agent?.model) return parent.model;
  try {
    return parent.ctx.models.resolve('model', agent.model);
  } catch (err) {
    parent.ctx.host.log('info', `Agent "${agent.name}" asks for model "${agent.model}", which Keel does not know (${errorMessage(err)}); it uses ${parent.model.id}.`);
    return parent.model;
  }
}

/** Output of a subagent's call as its step shows it: the first 2,000 characters. */
const stepOutputChars = 2000;

function stepOf(e: LoopEvent, parentId: string): SubagentStep | undefined {
  if (e.type === 'tool_use') {
    return { kind: 'tool_use', toolCallId: `${parentId}.${e.toolCallId}`, name: e.name, input: e.input, ...(e.display ? { title: e.display.title, summary: e.display.summary } : {}) };
  }
  if (e.type === 'tool_result') return { kind: 'tool_result', toolCallId: `${parentId}.${e.toolCallId}`, isError: e.isError, output: e.output.slice(0, stepOutputChars) };
  if (e.type === 'message' && !e.partial && e.message.role === 'assistant') {
    const content = e.message.content;
    const text = typeof content === 'string' ? content : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    if (text.trim() !== '') return { kind: 'text', text };
  }
  return undefined;
}
