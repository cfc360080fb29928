import * as l10n from '@vscode/l10n';
import type { Context } from '../../core/context';
import type { ResolvedModel } from '../../core/model';
import type { Project } from '../../core/project';
import type { Session } from '../../core/session';
import type { ProjectEvent, RunOptions, RunResult } from '../../core/projectTypes';
import type { RequestParams } from '../../protocol/catalogue';
import type { AgentMode } from '../../protocol/sessionState';
import type { HeldCore } from '../runtime/coreLoader';
import type { PlanAction } from './planRuns';
import { latestPlanInfo, runPlanAction } from './planRuns';
import type { QueuedRun, RunTurn } from '../../core/runQueue';
import { uiErrorOf } from './runContext';
import type { RunContext } from './runContext';
import { runFailure } from './runErrors';
import type { SessionTitler } from '../sessions/sessionTitler';
import { userContent } from '../conversations/uiMessages';
import { withResourceMentions } from '../../core/mentions/index';

export type SendParams = RequestParams<'session.send'>;

/** A message's model, resolved once when it was sent, with the core it came from. */
export interface ModelForRun {
  ctx: Context;
  model: ResolvedModel;
}

export interface QueuedSend {
  /** The view's id of the user message. */
  id: string;
  params: SendParams;
  mode: AgentMode;
  /** Execute or refine a plan instead of sending `params.text` as typed. */
  plan?: PlanAction;
  model?: ModelForRun;
}

export interface SendRunContext extends RunContext {
  titler: SessionTitler;
  generateTitles?(): boolean;
  onSessionChange?(id: string | null): void;
}

/** The person's message (or a plan action) in the queue, and its run when its turn comes. */
export class SendRun implements QueuedRun {
  readonly id: string;
  readonly params: SendParams;
  readonly mode: AgentMode;
  readonly plan: PlanAction | undefined;
  private readonly model: ModelForRun | undefined;

  constructor(
    private readonly rc: SendRunContext,
    item: QueuedSend,
  ) {
    this.id = item.id;
    this.params = item.params;
    this.mode = item.mode;
    this.plan = item.plan;
    this.model = item.model;
  }

  dropped(): void {
    this.rc.state.setStatus(this.id, 'cancelled');
  }

  async run(turn: RunTurn): Promise<void> {
    const { rc } = this;
    const { signal } = turn;
    const { state } = rc;
    if (state.message(this.id)?.status === 'queued') state.dequeue(this.id);
    state.setRun({ running: true, queued: rc.waiting(), mode: this.mode });
    rc.activity();
    let recorded = false;
    let secrets: string[] = [];
    let held: HeldCore | undefined;
    try {
      // The run keeps the core it starts with; a settings change applies to the next one.
      held = await rc.core.hold();
      const { built } = held;
      secrets = built.secrets;
      const project = rc.slot.for(built.ctx);
      // Resolved again only when the core was rebuilt (new settings) while the message waited.
      const model = this.model?.ctx === built.ctx ? this.model.model : built.ctx.models.resolve(this.mode === 'plan' ? 'planModel' : 'model');
      state.beginRun(model.id);
      state.setRun({ model: model.id, approvalMode: project.approvalMode });
      const plan = this.plan;
      const run = plan
        ? (_input: unknown, opts: RunOptions) => runPlanAction(project, plan, opts)
        : this.mode === 'plan'
          ? project.plan.bind(project)
          : project.send.bind(project);
      // `@server:uri` typed in the message attaches that MCP resource, as in `keel run`.
      const mentions = withResourceMentions(this.params.text, this.params.mentions ?? [], built.ctx.mcp.status().map((s) => s.name));
      const result = await run(userContent(this.params), {
        turn,
        resolvedModel: model,
        messageId: this.id,
        ...(mentions.length ? { mentions } : {}),
        onEvent: (event) => {
          if (event.type === 'message' && event.message.role === 'user') {
            recorded = true;
            // The plan was settled (executed, refined) as its run began: the view's plan actions go.
            if (plan) state.setPlan(latestPlanInfo(project));
            this.markBranch(project);
          }
          this.onProjectEvent(event, project, model, signal);
        },
        onToolApprove: (request) => rc.approvals.ask(request, signal),
      });
      this.finish(result, secrets);
      if (plan || this.mode === 'plan') state.setPlan(latestPlanInfo(project));
      if (rc.generateTitles?.() === true) {
        rc.titler.maybeTitle(built.ctx, project.session, (title) => {
          if (rc.slot.current?.session === project.session) state.setSession({ id: project.session.id, title });
        });
      }
    } catch (err) {
      const error = uiErrorOf(rc.core, err, secrets);
      rc.log('error', `run failed: ${error.message}`);
      state.error(error);
      state.finishRun({ cancelled: false, error });
      // The session never got the message: say so on it, so nothing is silently lost.
      if (!recorded) state.setStatus(this.id, 'error', { code: error.code, message: error.message });
    } finally {
      held?.release();
    }
  }

  private finish(result: RunResult, secrets: readonly string[]): void {
    const { state } = this.rc;
    if (result.status === 'error') {
      const error = runFailure(result.error ?? { message: l10n.t('the model request failed') }, secrets);
      this.rc.log('warn', `run ended with an error: ${error.message}`);
      state.error(error);
      state.finishRun({ cancelled: false, error });
      return;
    }
    if (result.status === 'max_turns') {
      state.error({
        code: 'internal',
        message: l10n.t('The agent stopped after {0} turns (keel.maxTurns). Send "continue" to let it go on.', result.turns),
        retryable: true,
      });
    }
    state.finishRun({ cancelled: result.status === 'cancelled' });
  }

  private onProjectEvent(event: ProjectEvent, project: Project, model: ResolvedModel, signal: AbortSignal): void {
    const { state } = this.rc;
    if (event.type === 'usage') {
      const totals = project.session.usageTotals();
      const { autoCompact, compactAt } = project.ctx.config;
      state.setUsage({
        ...totals,
        contextTokens: event.inputTokens + event.outputTokens,
        ...(model.contextWindow ? { contextWindow: model.contextWindow } : {}),
        ...(event.contextParts ? { contextParts: event.contextParts } : {}),
        ...(autoCompact && model.contextWindow ? { compactAt: Math.max(1, Math.floor(model.contextWindow * compactAt)) } : {}),
      });
      const used = event.messageId === undefined ? undefined : project.session.messageUsage(event.messageId);
      if (used) state.setMessageUsage(event.messageId!, used);
      return;
    }
    state.apply(event, () => signal.aborted);
    if (event.type === 'compaction') showCompacted(this.rc, event, project.session);
    if (event.type === 'message' && event.message.role === 'user') {
      state.setSession({ id: project.session.id, title: project.session.summary().title || null });
      this.rc.onSessionChange?.(project.session.id);
    }
  }

  /** A prompt sent after an edit shows which version it is. */
  private markBranch(project: Project): void {
    const point = project.session.branchPoints().get(this.id);
    const message = this.rc.state.message(this.id);
    if (point && message) this.rc.state.add({ ...message, branch: { index: point.index, count: point.count } });
  }
}

/**
 * The context meter shows the smaller history at once, not after the next request (what fills
 * it is known again with that request); the summary's own usage goes on its divider and into the total.
 */
export function showCompacted(rc: Pick<RunContext, 'state'>, event: Extract<ProjectEvent, { type: 'compaction' }>, session: Session): void {
  if (event.phase !== 'done') return;
  const { contextParts: _stale, ...usage } = rc.state.usage ?? { inputTokens: 0, outputTokens: 0 };
  rc.state.setUsage({ ...usage, ...session.usageTotals(), contextTokens: event.tokensAfter });
  const used = session.messageUsage(event.id);
  if (used) rc.state.setMessageUsage(event.id, used);
}
