import type { ModelMessage } from 'ai';
import type { Context } from '../context';
import { costOf } from '../model/modelCatalogue';
import type { ResolvedModel } from '../model/modelRegistry';
import { addUsage } from '../model/tokenUsage';
import type { TokenUsage } from '../model/tokenUsage';
import type { ProjectEvent, SubagentStep, SubagentUsage } from '../projectTypes';
import type { LoggedSubagent, MessageMeta } from '../session/sessionRecords';
import type { Session } from '../session/session';
import type { AgentFile } from '../setup/agentFiles';
import type { AnyTool, ToolResult } from '../tools/tool';
import { createTaskTool } from '../tools/taskTool';
import type { LoopToolCall } from '../loop/loopTypes';
import { runSubagent } from './runSubagent';

/** Steps of one subagent the log keeps; past it the oldest are dropped. */
const loggedSteps = 200;

/**
 * One run's subagents: the `task` tool they start from, their usage (counted into the run's),
 * and their steps, kept until the tool message holding the task's result is logged so a
 * reopened conversation draws the card as it was drawn live.
 */
export class RunSubagents {
  readonly usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  costUsd = 0;
  private readonly steps = new Map<string, LoggedSubagent>();
  /** What each task's subagent used so far, by the task call's id, until its result is logged. */
  private readonly usageByTask = new Map<string, SubagentUsage>();

  constructor(
    private readonly run: {
      ctx: Context;
      session: Session;
      model: ResolvedModel;
      maxTurns: number;
      call(call: LoopToolCall): Promise<ToolResult>;
      emit(e: ProjectEvent): void;
    },
  ) {}

  /** The task tool over these agents; its subagents get a subset of `offered` (as the run offers them now). */
  taskTool(agents: readonly AgentFile[], offered: readonly AnyTool[]): AnyTool {
    const { ctx, session, model, maxTurns } = this.run;
    return createTaskTool(agents, (task, signal) =>
      runSubagent(
        {
          ctx,
          model,
          offered,
          maxTurns,
          call: (call) => this.run.call(call),
          onStep: (parentToolCallId, agent, step) => this.step(parentToolCallId, agent, step),
          onUsage: (usage, used, parentToolCallId) => {
            addUsage(this.usage, usage);
            const costUsd = used.price ? costOf(usage, used.price) : undefined;
            this.costUsd += costUsd ?? 0;
            session.appendUsage({ ...usage, model: used.id, ...(costUsd !== undefined ? { costUsd } : {}) });
            this.taskUsage(parentToolCallId, usage, costUsd);
          },
        },
        { ...task, signal },
      ),
    );
  }

  /** For a tool message about to be logged: the subagents of the task results it holds (and they are let go). */
  messageSubagents(message: ModelMessage): Pick<MessageMeta, 'subagents'> {
    if (message.role !== 'tool' || this.steps.size === 0) return {};
    const out: Record<string, LoggedSubagent> = {};
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const logged = this.steps.get(part.toolCallId);
      const usage = this.usageByTask.get(part.toolCallId);
      this.usageByTask.delete(part.toolCallId);
      if (!logged) continue;
      out[part.toolCallId] = usage ? { ...logged, usage: { ...usage } } : logged;
      this.steps.delete(part.toolCallId);
    }
    return Object.keys(out).length ? { subagents: out } : {};
  }

  /** One more model call of a task's subagent: its card shows the sum (the cost only while every call had a price). */
  private taskUsage(parentToolCallId: string, usage: TokenUsage, costUsd: number | undefined): void {
    const before = this.usageByTask.get(parentToolCallId);
    const sum: SubagentUsage = { inputTokens: 0, outputTokens: 0, ...before };
    delete sum.costUsd;
    addUsage(sum, usage);
    const priced = costUsd !== undefined && (before === undefined || before.costUsd !== undefined);
    if (priced) sum.costUsd = (before?.costUsd ?? 0) + costUsd;
    this.usageByTask.set(parentToolCallId, sum);
    this.run.emit({ type: 'subagent_usage', parentToolCallId, usage: { ...sum } });
  }

  private step(parentToolCallId: string, agent: string, step: SubagentStep): void {
    const logged = this.steps.get(parentToolCallId) ?? { agent, steps: [] };
    logged.steps.push(step);
    if (logged.steps.length > loggedSteps) logged.steps.shift();
    this.steps.set(parentToolCallId, logged);
    this.run.emit({ type: 'subagent', parentToolCallId, agent, step });
  }
}
