import * as l10n from '@vscode/l10n';
import type { Project } from '../../core/project';
import { BusError } from '../../protocol/busError';
import type { RequestResult } from '../../protocol/catalogue';
import type { AgentMode } from '../../protocol/sessionState';
import type { ConversationState } from '../conversations/conversationState';
import { latestPlanInfo, planActionText, planInfo } from './planRuns';
import type { PlanAction, PlanFiles } from './planRuns';

export interface PlanControlDeps {
  /** The conversation in view. */
  project(): Project | undefined;
  state: ConversationState;
  files: PlanFiles | undefined;
  /** A run for this plan is waiting in the controller's queue. */
  isQueued(planId: string): boolean;
  /** Queues a plan action like a typed message, shown in the chat as `text`. */
  enqueue(text: string, mode: AgentMode, plan: PlanAction): RequestResult<'plan.execute'>;
}

/**
 * What the person does with a plan of the conversation in view (the view's plan actions and
 * the palette's plan commands). Runs go through the chat controller's queue, in order.
 */
export class PlanControl {
  private readonly deps: PlanControlDeps;
  /** Plans being saved and queued right now: a second click must not queue one twice. */
  private readonly queueing = new Set<string>();

  constructor(deps: PlanControlDeps) {
    this.deps = deps;
  }

  /** Opens a plan's file in an editor; its saved text is what executes. */
  async open(planId: string): Promise<boolean> {
    const project = this.projectWith(planId);
    if (!this.deps.files) throw new BusError('internal', l10n.t('Plans cannot be opened in this editor.'));
    return this.deps.files.open(project.plans.ensureFile(planId));
  }

  /** The plan whose file this is, when it belongs to the conversation in view. */
  idOfFile(path: string): string | undefined {
    const plans = this.deps.project()?.plans;
    return plans?.list().find((p) => plans.filePath(p.id) === path)?.id;
  }

  /** The newest plan of the conversation in view, if any. */
  latestId(): string | undefined {
    return this.deps.project()?.plans.latest()?.id;
  }

  /** Executes a plan in act mode, after the queue (unsaved edits in its editor are saved first). */
  execute(planId: string): Promise<RequestResult<'plan.execute'>> {
    return this.queue({ kind: 'execute', planId }, 'act');
  }

  /** Asks for a revised plan in plan mode with the person's feedback. */
  refine(planId: string, feedback: string): Promise<RequestResult<'plan.refine'>> {
    return this.queue({ kind: 'refine', planId, feedback }, 'plan');
  }

  discard(planId: string): RequestResult<'plan.discard'> {
    const project = this.projectWith(planId);
    const plan = planInfo(project.plans.settle(planId, 'discarded'));
    this.deps.state.setPlan(plan);
    return { plan };
  }

  private async queue(action: PlanAction, mode: AgentMode): Promise<RequestResult<'plan.execute'>> {
    const project = this.projectWith(action.planId);
    const plan = project.plans.get(action.planId)!;
    if (plan.status !== 'proposed' && plan.status !== 'edited') throw new BusError('internal', plan.status === 'executed' ? l10n.t('This plan was already executed.') : plan.status === 'refined' ? l10n.t('This plan was already refined.') : l10n.t('This plan was already discarded.'));
    if (this.queueing.has(action.planId) || this.deps.isQueued(action.planId)) throw new BusError('internal', l10n.t('This plan is already queued.'));
    this.queueing.add(action.planId);
    let text: string;
    try {
      await this.deps.files?.saveIfDirty(project.plans.filePath(action.planId));
      text = planActionText(project, action);
    } finally {
      this.queueing.delete(action.planId);
    }
    this.deps.state.setPlan(latestPlanInfo(project));
    return this.deps.enqueue(text, mode, action);
  }

  private projectWith(planId: string): Project {
    const project = this.deps.project();
    if (!project?.plans.get(planId)) throw new BusError('internal', l10n.t('This conversation has no plan {0}.', planId));
    return project;
  }
}
