import type { ApprovalMode } from './config/configSchema';
import type { Context } from './context';
import { KeelError } from './errors';
import { sessionHistoryOf } from './history/sessionHistoryOf';
import type { SessionHistory } from './history/sessionHistory';
import { ChangeJournal } from './journal/changeJournal';
import { ConversationContext } from './llmsContext/conversationContext';
import { PlanBook } from './plan/planBook';
import { ProjectRules } from './rules/projectRules';
import type { Session } from './session/session';
import { createFileUndo, type FileUndo } from './snapshots/fileUndo';
import { BackgroundJobs } from './tools/backgroundJobs';
import { FileReadTracker } from './tools/fileReadTracker';
import { TodoStore } from './tools/todoStore';
import { RunQueue } from './runQueue';
import type { QueuedRun, RunTurn } from './runQueue';
import { recordedProject } from './workspace/currentProject';
import type { Workspace } from './workspace/workspace';

export interface ConversationRuntimeOptions {
  /** Background commands of a conversation this one continues in the same process, so they stay reachable. */
  jobs?: BackgroundJobs;
  /**
   * The conversation's queue when its host keeps it (the chat: it outlives the session a new
   * chat opens with its first run, and holds the person's messages); by default its own.
   */
  queue?: RunQueue<QueuedRun>;
}

/**
 * What one conversation holds for as long as it is open, whatever the configuration: the
 * session, the files it read, its background commands, its todos and plans, the rules it fired,
 * the folders it touched and the queue of its runs. The Context (configuration, models, the
 * workspace as configured) is only lent to it: a settings change swaps it with `useContext()`,
 * and each run takes the one current when it starts.
 */
export class ConversationRuntime {
  readonly session: Session;
  readonly todos = new TodoStore();
  readonly reads = new FileReadTracker();
  readonly jobs: BackgroundJobs;
  readonly plans: PlanBook;
  readonly history: SessionHistory;
  /** Every file change this conversation applies, for undo and restore; absent on a read-only session. */
  readonly journal: ChangeJournal | undefined;
  /** What the model is told about the workspace, and the folders this conversation touched. */
  readonly context: ConversationContext;
  /** Event rules: reminders, context and notices on the conversation's events, and what fired. */
  readonly rules: ProjectRules;
  private current: Context;
  private undo: FileUndo | undefined;
  /** The workspace with this conversation's current project (multi-root): relative tool paths start there. */
  private scoped: Workspace;
  /** Its runs, one after another, with whatever its host queued in it. */
  private readonly queue: RunQueue<QueuedRun>;

  constructor(ctx: Context, session: Session, opts: ConversationRuntimeOptions = {}) {
    this.current = ctx;
    this.session = session;
    this.queue = opts.queue ?? new RunQueue();
    this.jobs = opts.jobs ?? new BackgroundJobs({ onError: (err) => this.ctx.host.log('error', `Could not stop a background command: ${err.message}`) });
    this.scoped = this.recordedScope(ctx);
    // The collaborators below keep what this conversation did; they reach the Context through it.
    const self = this;
    this.context = new ConversationContext({
      get llmsContext() {
        return self.ctx.llmsContext;
      },
      get plugins() {
        return self.ctx.plugins;
      },
      get host() {
        return self.ctx.host;
      },
      sessionId: session.id,
      // Earlier tool calls' relative paths are read as relative to the project the session was left in.
      get workspace() {
        return self.scoped;
      },
      entries: () => session.entries(),
    });
    this.history = sessionHistoryOf(session);
    this.rules = new ProjectRules({
      get workspace() {
        return self.ctx.workspace;
      },
      get home() {
        return self.ctx.paths.home;
      },
      get host() {
        return self.ctx.host;
      },
      session,
      get trusted() {
        return self.ctx.workspaceTrusted;
      },
      approvalMode: () => this.approvalMode,
    });
    this.plans = new PlanBook(session);
    this.journal = session.readOnly
      ? undefined
      : new ChangeJournal({
          session,
          get host() {
            return self.ctx.host;
          },
          display: (p) => self.ctx.workspace.display(p),
        });
    this.undo = this.journal ? createFileUndo(ctx, session, this.journal) : undefined;
  }

  /** The Context runs start with now. */
  get ctx(): Context {
    return this.current;
  }

  /**
   * The configuration changed (settings, keys, trust): the next run works with `ctx`. What the
   * conversation holds stays; the snapshots around commands follow the new snapshot settings.
   */
  useContext(ctx: Context): void {
    if (ctx === this.current) return;
    if (ctx.sessions.key !== this.current.sessions.key) {
      throw new KeelError('session', `session ${this.session.id} belongs to another workspace; open it there`);
    }
    this.current = ctx;
    const kept = ctx.workspace.folders.find((f) => f.path === this.scoped.current.path);
    this.scoped = kept ? ctx.workspace.withCurrent(kept.path) : this.recordedScope(ctx);
    if (this.journal) this.undo = createFileUndo(ctx, this.session, this.journal);
  }

  /** Snapshots around commands, and the restore over them and the journal; absent on a read-only session. */
  get fileUndo(): FileUndo | undefined {
    return this.undo;
  }

  get approvalMode(): ApprovalMode {
    return this.session.config().approvalMode ?? this.ctx.config.approvalMode;
  }

  /** The workspace as this conversation's tools see it (its current project set). */
  get workspace(): Workspace {
    return this.scoped;
  }

  /** Makes `scope` the workspace its tools see (another current project). */
  setWorkspace(scope: Workspace): void {
    this.scoped = scope;
  }

  /**
   * Runs `job` after the runs queued before it; with `turn` (the caller's run holds it), in
   * that turn at once.
   */
  enqueue<T>(job: () => Promise<T>, turn?: RunTurn): Promise<T> {
    if (turn) {
      if (!this.queue.holds(turn)) return Promise.reject(new KeelError('session', 'That run has ended in this conversation; queue the next one.'));
      return job();
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.add({
        run: () => job().then(resolve, reject),
        dropped: () => reject(new KeelError('session', 'The conversation was closed before this run began.')),
      });
      this.queue.start();
    });
  }

  /**
   * Ends the conversation's life in this process: stops its background commands and every
   * process they started, and waits for its snapshots to be written; the session log stays.
   */
  async dispose(): Promise<void> {
    await this.jobs.stopAll();
    await this.undo?.snapshots.settle();
  }

  private recordedScope(ctx: Context): Workspace {
    const recorded = recordedProject(ctx.workspace, this.session.config().currentProject);
    if (recorded.warning) ctx.host.log('warn', `session ${this.session.id}: ${recorded.warning}`);
    return ctx.workspace.withCurrent(recorded.folder.path);
  }
}
