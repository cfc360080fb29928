import { executionPrompt, planSteps, planTodos } from '../../core/plan';
import type { Project } from '../../core/project';
import type { RunOptions, RunResult } from '../../core/projectTypes';
import type { PlanRecord } from '../../core/session';
import type { PlanInfo } from '../../protocol/planState';

/** A queued run that acts on a plan instead of sending a typed message. */
export type PlanAction = { kind: 'execute'; planId: string } | { kind: 'refine'; planId: string; feedback: string };

/** The editor side of plan files: open one for editing, save it if it has unsaved edits. */
export interface PlanFiles {
  open(path: string): Promise<boolean>;
  saveIfDirty(path: string): Promise<void>;
}

export function planInfo(plan: PlanRecord): PlanInfo {
  return { id: plan.id, status: plan.status, steps: planSteps(plan.text).length };
}

/** The conversation's newest plan, for the view. */
export function latestPlanInfo(project: Project | undefined): PlanInfo | undefined {
  const plan = project?.plans.latest();
  return plan ? planInfo(plan) : undefined;
}

/** What the chat shows as the person's message for a plan action (the model gets the same text). */
export function planActionText(project: Project, action: PlanAction): string {
  const plan = project.plans.sync(action.planId);
  if (action.kind === 'refine') return action.feedback;
  return executionPrompt(plan.text, planTodos(plan.text));
}

export function runPlanAction(project: Project, action: PlanAction, opts: RunOptions): Promise<RunResult> {
  return action.kind === 'execute' ? project.executePlan(action.planId, opts) : project.refinePlan(action.planId, action.feedback, opts);
}
