import * as l10n from '@vscode/l10n';
import type { Context } from '../../core/context';
import { errorMessage, KeelError } from '../../core/errors';
import type { ApprovalMode } from '../../core/projectTypes';
import { BusError } from '../../protocol/busError';
import type { RequestResult } from '../../protocol/catalogue';
import type { ConversationActivity } from '../../protocol/conversationActivity';
import type { LogFn } from '../../protocol/log';
import type { AgentMode } from '../../protocol/sessionState';
import { ApprovalFlow } from '../approvals/approvalFlow';
import type { ChangeApprovalHooks } from '../approvals/approvalFlow';
import { ChangeReverts } from '../parts/changeReverts';
import { McpAppRequests } from '../parts/mcpAppRequests';
import { CompactionRun } from '../runs/compactionRun';
import { ConfigSync } from '../settings/configSync';
import { ConversationState } from './conversationState';
import type { ConversationStateOptions } from './conversationState';
import type { CoreAccess } from '../runtime/coreAccess';
import type { EventSink } from './eventSink';
import { PlanControl } from '../runs/planControl';
import type { PlanAction, PlanFiles } from '../runs/planRuns';
import { ProjectSlot } from '../runtime/projectSlot';
import { readOnlyMessage } from '../runs/readOnlyMessage';
import { uiErrorOf } from '../runs/runContext';
import type { RunLimiter } from '../runs/runLimiter';
import { RunQueue } from '../../core/runQueue';
import type { QueuedRun } from '../../core/runQueue';
import { SendRun } from '../runs/sendRun';
import type { ModelForRun, SendParams, SendRunContext } from '../runs/sendRun';
import { SessionTitler } from '../sessions/sessionTitler';
import { userUiMessage } from './uiMessages';
import type { ViewLink } from '../bus/viewSync';

/** What a conversation is built with; the `on…` hooks reach the window that holds it. */
export interface ConversationOptions {
  /** Where this conversation's Context comes from (the window's loader, or one rooted elsewhere). */
  core: CoreAccess;
  log: LogFn;
  trusted(): boolean;
  limiter: RunLimiter;
  state?: ConversationStateOptions;
  changes?: ChangeApprovalHooks;
  planFiles?: PlanFiles;
  generateTitles?(): boolean;
  /** One of this conversation's state events; the window passes it on only while it is in view. */
  emit(from: Conversation, ...event: Parameters<EventSink['emit']>): void;
  /** A run of this conversation ended (what was coalesced for the view goes out). */
  afterRun(from: Conversation): void;
  /** The view, while this conversation is in it and the view has its snapshot. */
  syncedView(from: Conversation): ViewLink | undefined;
  /** Running, queued or the open approvals changed. */
  onActivity(from: Conversation): void;
  onApprovalNeeded(from: Conversation): void;
  onSessionChange(from: Conversation, id: string | null): void;
  /** The last run ended and nothing waits. */
  onIdle(from: Conversation): void;
}

/**
 * One conversation of the window: its Project (in a slot), the state its view is rebuilt
 * from, its run queue, approvals, plans and reverts. It runs the same whether it is in view
 * or not; the window decides who hears its events.
 */
export class Conversation {
  readonly core: CoreAccess;
  readonly state: ConversationState;
  readonly slot: ProjectSlot;
  readonly approvals: ApprovalFlow;
  /** The conversation's one queue: the person's messages, plan actions and compactions; each Project it opens runs in it. */
  readonly queue: RunQueue<QueuedRun>;
  readonly plans: PlanControl;
  readonly reverts: ChangeReverts;
  /** The MCP Apps on its cards: their pages and their tool calls. */
  readonly apps: McpAppRequests;
  readonly config: ConfigSync;
  /** Messages of this conversation the view was not sent (a long one opens with its end). */
  hiddenEarlier = 0;
  /** The latest run reported an error (a background conversation then shows as failed). */
  failed = false;
  private readonly runs: SendRunContext;
  private cardsWaiting = 0;

  constructor(private readonly opts: ConversationOptions) {
    this.core = opts.core;
    this.state = new ConversationState(
      {
        emit: (event, data) => {
          if (event === 'error') this.failed = true;
          opts.emit(this, event, data);
        },
      },
      opts.state,
    );
    this.approvals = new ApprovalFlow({
      state: this.state,
      syncedView: () => opts.syncedView(this),
      log: opts.log,
      onChange: () => opts.onActivity(this),
      onNeeded: () => opts.onApprovalNeeded(this),
      changes: opts.changes,
    });
    this.queue = new RunQueue({
      admit: (signal) => opts.limiter.acquire(signal),
      onWaitingForTurn: () => opts.onActivity(this),
      afterRun: () => {
        this.approvals.rejectAll('the run ended');
        opts.afterRun(this);
      },
      idle: () => {
        this.state.setRun({ running: false, queued: 0 });
        opts.onActivity(this);
        opts.onIdle(this);
      },
    });
    this.slot = new ProjectSlot(opts.log, (items) => this.state.setTodos(items), this.queue);
    this.config = new ConfigSync({ core: this.core, log: opts.log, trusted: opts.trusted, state: this.state, slot: this.slot, isRunning: () => this.queue.isRunning });
    this.runs = {
      core: this.core,
      log: opts.log,
      state: this.state,
      slot: this.slot,
      approvals: this.approvals,
      waiting: () => this.queue.length,
      activity: () => {
        this.failed = false;
        opts.onActivity(this);
      },
      titler: new SessionTitler(opts.log),
      generateTitles: opts.generateTitles,
      onSessionChange: (id) => opts.onSessionChange(this, id),
    };
    this.plans = new PlanControl({
      project: () => this.slot.current,
      state: this.state,
      files: opts.planFiles,
      isQueued: (planId) => this.queue.some((q) => q instanceof SendRun && q.plan?.planId === planId),
      enqueue: (text, mode, plan) => {
        if (mode !== this.state.run.mode) this.state.setRun({ mode });
        return this.enqueue({ text }, mode, plan);
      },
    });
    this.apps = new McpAppRequests({
      apps: this.state.apps,
      project: () => this.slot.current,
      mode: () => this.state.run.mode,
      ask: (request, signal) => this.approvals.ask(request, signal),
    });
    this.reverts = new ChangeReverts({ project: () => this.slot.current, isRunning: () => this.queue.isRunning, state: this.state, log: opts.log });
  }

  /** The session's id once it has one (its first message was saved, or it was resumed). */
  get sessionId(): string | undefined {
    return this.slot.current?.session.id ?? this.state.session.id ?? undefined;
  }

  get title(): string {
    return this.state.session.title || this.slot.current?.session.summary().title || l10n.t('Untitled chat');
  }

  /** Something runs, waits its turn, or waits for the person: switching away keeps it going. */
  get busy(): boolean {
    return this.queue.busy || this.waitingForPerson > 0;
  }

  /** Tool approvals and MCP request cards waiting for the person's answer. */
  get waitingForPerson(): number {
    return this.approvals.size + this.cardsWaiting;
  }

  /** An MCP request card opened (+1) or was settled (-1) here (see McpCards): it waits like an approval. */
  cardWaiting(delta: 1 | -1): void {
    this.cardsWaiting = Math.max(0, this.cardsWaiting + delta);
    this.opts.onActivity(this);
  }

  /** What the sessions list shows for it while it is live (undefined: idle). */
  activity(): ConversationActivity | undefined {
    if (this.waitingForPerson > 0) return 'approval';
    if (this.queue.waitingForTurn) return 'queued';
    if (this.queue.busy) return 'running';
    return undefined;
  }

  /** `checked`: the model the caller resolved for this message already (edit and resend). */
  async send(params: SendParams, checked?: ModelForRun): Promise<RequestResult<'session.send'>> {
    const readOnly = this.slot.current?.session.readOnly ? this.state.session.readOnly : undefined;
    if (readOnly !== undefined) throw new BusError('session_read_only', readOnlyMessage(readOnly));
    const mode = params.mode ?? this.state.run.mode;
    if (mode !== this.state.run.mode) this.state.setRun({ mode });
    // Checked before the message is taken, so a missing model leaves the text in the composer;
    // the run uses this model unless the settings change before its turn.
    if (!checked) {
      try {
        const { ctx } = await this.core.get();
        checked = { ctx, model: ctx.models.resolve(mode === 'plan' ? 'planModel' : 'model') };
      } catch (err) {
        const error = uiErrorOf(this.core, err);
        this.state.error(error);
        void this.config.refresh();
        throw new BusError(error.code, error.message);
      }
    }
    // A new chat whose run must wait for another conversation's: its session exists now, so the list can show it queued.
    if (!this.opts.limiter.hasRoom()) this.slot.for(checked.ctx);
    return this.enqueue(params, mode, undefined, checked);
  }

  /** Puts a message (or a plan action, shown as `params.text`) in the queue. */
  private enqueue(params: SendParams, mode: AgentMode, plan?: PlanAction, model?: ModelForRun): RequestResult<'session.send'> {
    const id = this.state.newMessageId('user');
    // A message that waits for another conversation's run to end shows as queued too.
    const queued = this.queue.busy || !this.opts.limiter.hasRoom();
    this.state.add(userUiMessage(id, params, Date.now(), queued ? 'queued' : 'done'));
    this.queue.add(new SendRun(this.runs, { id, params, mode, plan, model }));
    this.state.setRun({ queued: this.queue.length - (this.queue.isRunning ? 0 : 1) });
    this.queue.start();
    return { messageId: id, queued };
  }

  /** Stops the run, drops the queue; approvals still open are answered as rejected. */
  cancel(): boolean {
    const cancelled = this.queue.cancel();
    this.approvals.rejectAll('the person stopped the run');
    this.state.setRun({ queued: 0 });
    this.opts.onActivity(this);
    return cancelled;
  }

  async stopAndWait(): Promise<void> {
    this.cancel();
    await this.queue.whenIdle();
  }

  /** `/compact`: summarizes the conversation; Stop cancels it (nothing is written then). */
  compact(): Promise<RequestResult<'session.compact'>> | RequestResult<'session.compact'> {
    if (this.queue.busy) {
      return { status: 'failed', message: l10n.t('Keel is working in this conversation: let it finish or stop it, then compact.') };
    }
    const current = this.slot.current;
    if (!current) return { status: 'nothing', message: l10n.t('There is nothing to compact yet.') };
    if (current.session.readOnly) return { status: 'failed', message: readOnlyMessage(current.session.readOnlyReason ?? l10n.t('it was opened read-only')) };
    const run = new CompactionRun(this.runs);
    this.queue.add(run);
    this.queue.start();
    return run.result;
  }

  /** Makes a workspace folder the current project: of this conversation (recorded in its log), or of its first run. */
  async selectWorkspaceProject(name: string): Promise<RequestResult<'workspaceProject.select'>> {
    if (this.queue.isRunning) {
      throw new BusError('busy', l10n.t('Keel is working in this conversation: stop it or let it finish, then switch the project.'));
    }
    const { ctx } = await this.core.get();
    try {
      this.slot.choice.select(ctx, this.slot.current, name);
    } catch (err) {
      throw new BusError('invalid_params', errorMessage(err));
    }
    return this.config.projects(ctx);
  }

  /** The custom agents there are, and the one this conversation works as ("Use Agent…" and the composer's picker). */
  async agents(): Promise<{ agents: { name: string; description: string; display: string }[]; current: string | undefined }> {
    const { ctx } = await this.core.get();
    return { agents: await ctx.llmsContext.agents(), current: this.slot.current?.agent };
  }

  /**
   * The conversation works as this agent ('' for Keel's own) from its next message on, kept in
   * its log (a resumed conversation keeps it). The one path for the palette and the composer.
   */
  async useAgent(name: string): Promise<string | undefined> {
    const readOnly = this.slot.current?.session.readOnly ? this.state.session.readOnly : undefined;
    if (readOnly !== undefined) throw new BusError('session_read_only', readOnlyMessage(readOnly));
    const { ctx } = await this.core.get();
    const project = this.slot.for(ctx);
    try {
      await project.useAgent(name);
    } catch (err) {
      if (err instanceof KeelError) throw new BusError('invalid_params', err.message);
      throw err;
    }
    this.state.setRun({ agent: project.agent });
    return project.agent;
  }

  setMode(mode: AgentMode): void {
    this.state.setRun({ mode });
    void this.config.refresh();
  }

  /** The person chose an approval mode: it applies to this conversation at once, mid-run too. */
  applyApprovalMode(mode: ApprovalMode): void {
    const project = this.slot.current;
    if (project && project.approvalMode !== mode && !project.session.readOnly) project.setApprovalMode(mode);
    this.state.setRun({ approvalMode: mode });
  }

  refreshConfig(): Promise<void> {
    return this.config.refresh();
  }

  refreshWorkspaceProjects(ctx: Context): Promise<RequestResult<'workspaceProject.select'>> {
    return this.config.projects(ctx);
  }

  /** Releases the session (its lock) and ends its background commands; the log stays. Ends when they have. */
  close(): Promise<void> {
    return this.slot.close();
  }
}
