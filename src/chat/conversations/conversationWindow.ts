import type { ConversationActivity } from '../../protocol/conversationActivity';
import type { AgentMode } from '../../protocol/sessionState';
import type { ChatControllerOptions } from '../chatControllerOptions';
import { Conversation } from './conversation';
import type { CoreAccess } from '../runtime/coreAccess';
import { RunLimiter } from '../runs/runLimiter';
import { ViewSync } from '../bus/viewSync';

/** What a run of this many conversations at once may be (keel.maxConcurrentRuns's default). */
export const DEFAULT_MAX_CONCURRENT_RUNS = 3;

/**
 * The window's conversations: the one in view, whose events reach the view, and the ones
 * that keep running in the background (until their runs end: then they are closed, and
 * what happened stays in their logs). One run slot limiter for them all.
 */
export class ConversationWindow {
  readonly view: ViewSync;
  readonly limiter: RunLimiter;
  private shown: Conversation;
  private readonly live = new Set<Conversation>();
  /** Conversations whose runs ended in the background since the person last opened them. */
  private readonly unseen = new Map<string, 'finished' | 'failed'>();
  private shownMode: AgentMode = 'act';
  private readonly runEndListeners = new Set<(from: Conversation) => void>();
  private lastActivity = '';
  private lastApprovals = -1;

  constructor(private readonly opts: ChatControllerOptions) {
    this.limiter = new RunLimiter(() => opts.maxConcurrentRuns?.() ?? DEFAULT_MAX_CONCURRENT_RUNS);
    this.view = new ViewSync({
      refreshConfig: () => this.shown.refreshConfig(),
      snapshot: () => {
        const snapshot = this.shown.state.snapshot(this.shown.approvals.pending());
        return this.shown.hiddenEarlier > 0 ? { ...snapshot, earlierMessages: this.shown.hiddenEarlier } : snapshot;
      },
      onSynced: () => {
        this.shown.approvals.showAll();
        this.lastActivity = '';
        this.activityChanged();
      },
    });
    this.shown = this.create();
    this.live.add(this.shown);
  }

  get inView(): Conversation {
    return this.shown;
  }

  /** Every conversation that is open: the one in view and the ones running in the background. */
  all(): Conversation[] {
    return [this.shown, ...[...this.live].filter((c) => c !== this.shown)];
  }

  /** A conversation, not yet in view, whose Context comes from `core` (the window's loader by default). */
  create(core: CoreAccess = this.opts.core): Conversation {
    const { opts } = this;
    return new Conversation({
      core,
      log: opts.log,
      trusted: opts.trusted,
      limiter: this.limiter,
      state: opts.state,
      changes: opts.changes,
      planFiles: opts.planFiles,
      generateTitles: opts.generateTitles,
      emit: (from, event, data) => {
        if (from !== this.shown) return;
        if (event === 'state') this.followMode((data as { mode: AgentMode }).mode);
        if (event === 'plan') opts.onPlanChange?.((data as { plan: Parameters<NonNullable<typeof opts.onPlanChange>>[0] }).plan);
        this.view.emit(event, data);
      },
      afterRun: (from) => {
        if (from === this.shown) this.view.flush();
        for (const listener of [...this.runEndListeners]) listener(from);
      },
      syncedView: (from) => (from === this.shown ? this.view.syncedView() : undefined),
      onActivity: () => this.activityChanged(),
      onApprovalNeeded: (from) => this.needsPerson(from),
      onSessionChange: (from, id) => {
        if (from === this.shown) opts.onSessionChange?.(id);
      },
      onIdle: (from) => this.idle(from),
    });
  }

  /** Hears each run of the window's conversations end; returns what stops it. */
  onRunEnd(listener: (from: Conversation) => void): () => void {
    this.runEndListeners.add(listener);
    return () => this.runEndListeners.delete(listener);
  }

  /** Something of `from` waits for the person: the view comes into sight, or a notice names a background conversation. */
  needsPerson(from: Conversation): void {
    const id = from.sessionId;
    if (from === this.shown || !id) this.opts.onApprovalNeeded?.();
    else this.opts.onApprovalNeeded?.({ sessionId: id, title: from.title });
  }

  /** The open conversation with this session, in view or in the background. */
  find(sessionId: string): Conversation | undefined {
    return this.all().find((c) => c.sessionId === sessionId);
  }

  /**
   * Puts `next` in view. The one in view before keeps running in the background when it is
   * busy, and is closed otherwise. `next` gets its configuration first, so the view never sees
   * one of its events before its snapshot.
   */
  async show(next: Conversation): Promise<void> {
    if (next === this.shown) {
      this.view.sendSnapshot();
      return;
    }
    await next.refreshConfig();
    const before = this.shown;
    before.approvals.withdrawShown();
    this.shown = next;
    this.live.add(next);
    if (!before.busy) this.close(before);
    const id = next.sessionId;
    if (id) this.unseen.delete(id);
    this.followMode(next.state.run.mode);
    this.opts.onPlanChange?.(next.state.plan ?? null);
    this.opts.onSessionChange?.(id ?? null);
    this.view.sendSnapshot();
    next.approvals.showAll();
    this.activityChanged();
  }

  /** Closes a conversation that is not in view and does nothing (its log stays as it is). */
  close(conversation: Conversation): void {
    this.live.delete(conversation);
    void conversation.close();
  }

  /** A session is gone (deleted): nothing is said about it any more. */
  forget(sessionId: string): void {
    if (this.unseen.delete(sessionId)) this.activityChanged();
  }

  /** What the sessions list shows for this session (undefined: idle). */
  activityOf(sessionId: string): ConversationActivity | undefined {
    const open = this.find(sessionId);
    return open?.activity() ?? (open === this.shown ? undefined : this.unseen.get(sessionId));
  }

  /** Every session that is not idle, for the view's sessions list. */
  activities(): Record<string, ConversationActivity> {
    const out: Record<string, ConversationActivity> = {};
    for (const [id, outcome] of this.unseen) out[id] = outcome;
    for (const c of this.all()) {
      const id = c.sessionId;
      const activity = c.activity();
      if (id && activity) out[id] = activity;
    }
    return out;
  }

  get isRunning(): boolean {
    return this.all().some((c) => c.queue.isRunning);
  }

  /** Approvals and MCP request cards waiting for the person, in every conversation (the badge on the Keel icon). */
  get approvalsWaiting(): number {
    return this.all().reduce((n, c) => n + c.waitingForPerson, 0);
  }

  /** Stops every run and closes every conversation, waiting at most `graceMs` for the runs to end. */
  async dispose(graceMs: number): Promise<void> {
    const open = this.all();
    for (const c of open) c.cancel();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const outcome = await Promise.race([Promise.all(open.map((c) => c.queue.whenIdle())), gaveUp]);
    clearTimeout(timer);
    if (outcome === 'timeout') this.opts.log('warn', `a run did not stop within ${graceMs} ms; closing its session anyway`);
    // A snapshot still being written (a command's, or the first one taken early) finishes first,
    // so nothing is left half-written in the conversation's store when the window goes.
    await Promise.all(open.map((c) => c.close()));
    this.live.clear();
  }

  private idle(conversation: Conversation): void {
    if (conversation !== this.shown && !conversation.busy) {
      const id = conversation.sessionId;
      if (id) this.unseen.set(id, conversation.failed ? 'failed' : 'finished');
      this.close(conversation);
      this.activityChanged();
    }
    // The core is not rebuilt while any run uses it: the view hears about new settings now.
    if (!this.isRunning) void this.shown.refreshConfig();
  }

  private followMode(mode: AgentMode): void {
    if (mode === this.shownMode) return;
    this.shownMode = mode;
    this.opts.onModeChange?.(mode);
  }

  /** The status bar, the badge and the sessions list follow what every conversation does. */
  private activityChanged(): void {
    const approvals = this.approvalsWaiting;
    this.opts.onActivity?.({ running: this.isRunning, approvals, runningInView: this.shown.queue.isRunning });
    if (approvals !== this.lastApprovals) {
      this.lastApprovals = approvals;
      this.opts.onApprovalsWaiting?.(approvals);
    }
    const activities = this.activities();
    const key = JSON.stringify(activities);
    if (key === this.lastActivity) return;
    this.lastActivity = key;
    this.view.emit('sessions.activity', { sessions: activities });
  }
}
