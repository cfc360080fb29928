import * as l10n from '@vscode/l10n';
import { Project } from '../core/project';
import { exportSource } from '../core/session/sessionExport';
import { BusError } from '../protocol/busError';
import type { RequestParams, RequestResult } from '../protocol/catalogue';
import type { LogFn } from '../protocol/log';
import type { SessionInfo } from '../protocol/sessionState';
import type { Context } from '../core/context';
import { commandFilesByCall } from './commandFiles';
import type { ConversationState } from './conversationState';
import type { CoreAccess } from './coreAccess';
import { sessionsPage } from './coreQueries';
import { latestPlanInfo } from './planRuns';
import type { ProjectSlot } from './projectSlot';
import { uiErrorOf } from './runContext';
import type { ModelForRun, SendParams } from './sendRun';
import type { ExportFormat, SessionUi } from './sessionUi';
import { RESUME_WINDOW, conversationView } from './sessionView';
import { todosFromEntries } from './uiSessions';
import type { ViewSync } from './viewSync';
import type { Worktree } from '../core/worktrees/gitWorktree';
import type { WorktreeSessionHooks } from './worktreeCores';

export interface SessionActionsDeps {
  core: CoreAccess;
  log: LogFn;
  state: ConversationState;
  slot: ProjectSlot;
  view: ViewSync;
  sessionUi?: SessionUi;
  onSessionChange?(id: string | null): void;
  /** Stops the run and drops the queue, resolving once nothing runs. */
  stopAndWait(): Promise<void>;
  refreshWorkspaceProjects(ctx: Context): Promise<unknown>;
  /** Sends as the person does, with the model resolved for it already. */
  send(params: SendParams, model: ModelForRun): Promise<RequestResult<'session.send'>>;
  worktrees?: WorktreeSessionHooks;
}

/**
 * What the person does with whole conversations: start a new one, resume, rename, delete,
 * export, edit a prompt and resend it, switch between its versions, load its earlier part.
 */
export class SessionActions {
  constructor(private readonly deps: SessionActionsDeps) {}

  /** `worktree`: the new conversation works in that git worktree (New Chat in Worktree). */
  async newSession(worktree?: Worktree): Promise<RequestResult<'session.new'>> {
    const { deps } = this;
    await deps.stopAndWait();
    deps.slot.choice.carryOver(deps.slot.current);
    deps.slot.close();
    await deps.worktrees?.select(worktree);
    deps.state.replace([], { id: null, title: null, ...(worktree ? { branch: worktree.branch } : {}) }, null, []);
    deps.state.setPlan(undefined);
    deps.view.hiddenEarlier = 0;
    deps.onSessionChange?.(null);
    deps.view.sendSnapshot();
    return { session: { id: null, title: null } };
  }

  async resume(id: string): Promise<RequestResult<'sessions.resume'>> {
    const { deps } = this;
    const { state } = deps;
    await deps.stopAndWait();
    if (deps.slot.current?.session.id === id) {
      deps.view.sendSnapshot();
      return { session: { ...state.session } };
    }
    await deps.worktrees?.selectFor(id);
    const { ctx } = await deps.core.get();
    const session = ctx.sessions.open(id);
    for (const warning of session.warnings) deps.log('warn', `session ${id}: ${warning}`);
    deps.slot.close();
    const project = new Project(ctx, session, { queuedByHost: true });
    const entries = session.entries();
    project.todos.set(todosFromEntries(entries));
    deps.slot.set(project);
    const view = conversationView(session, RESUME_WINDOW);
    const info: SessionInfo = view.info;
    if (session.recovered) deps.log('warn', `session ${id}: ${session.recovered}`);
    deps.view.hiddenEarlier = view.earlier;
    state.replace(view.messages, info, view.usage, project.todos.get());
    state.attachChanges(project.journal?.entries() ?? []);
    state.attachCommandFiles(commandFilesByCall(session.fileHistory(), (id) => session.isReverted(id)));
    state.attachRules(session.rulesFired());
    state.setRun({ approvalMode: project.approvalMode });
    state.setPlan(latestPlanInfo(project));
    deps.onSessionChange?.(session.id);
    await deps.refreshWorkspaceProjects(ctx);
    deps.view.sendSnapshot();
    return { session: info };
  }

  async list(params: RequestParams<'sessions.list'>): Promise<RequestResult<'sessions.list'>> {
    const { ctx } = await this.deps.core.get();
    return sessionsPage(ctx, params, this.deps.slot.current?.session.id);
  }

  async rename(id: string, title: string): Promise<RequestResult<'sessions.rename'>> {
    const current = this.deps.slot.current?.session;
    if (current?.id === id && !current.readOnly) {
      current.appendConfig('title', title.trim());
      const shown = current.summary().title;
      this.deps.state.setSession({ id, title: shown || null });
      return { title: shown };
    }
    const { ctx } = await this.deps.core.get();
    return { title: ctx.sessions.rename(id, title).title };
  }

  /** Asks first; the conversation in view is replaced by a new one before its log goes. */
  async delete(id: string): Promise<RequestResult<'sessions.delete'>> {
    const ui = this.sessionUi();
    const { ctx } = await this.deps.core.get();
    const stored = ctx.sessions.open(id, { readOnly: true });
    const title = stored.summary().title;
    const worktree = stored.config().worktree;
    stored.close();
    if (!(await ui.confirmDelete(title))) return { deleted: false };
    if (this.deps.slot.current?.session.id === id) await this.newSession();
    ctx.sessions.delete(id);
    if (worktree) await this.deps.worktrees?.deleted(worktree);
    return { deleted: true };
  }

  async export(id: string, format: ExportFormat): Promise<RequestResult<'sessions.export'>> {
    const ui = this.sessionUi();
    const { ctx } = await this.deps.core.get();
    // Read from disk without the lock: the conversation in view may be exported too.
    const stored = ctx.sessions.open(id, { readOnly: true });
    let source: ReturnType<typeof exportSource>;
    try {
      source = exportSource(stored);
    } finally {
      stored.close();
    }
    return { exported: await ui.exportSession(source, format) };
  }

  /** "Edit and resend": the branch goes back to before that prompt and the edited text is sent from there. */
  async editAndResend(params: RequestParams<'session.editAndResend'>): Promise<RequestResult<'session.editAndResend'>> {
    const { deps } = this;
    await deps.stopAndWait();
    const session = this.writableSession();
    // Without a usable model the branch would be cut and nothing sent: refuse first, fork nothing.
    let model: ModelForRun;
    try {
      const { ctx } = await deps.core.get();
      model = { ctx, model: ctx.models.resolve(deps.state.run.mode === 'plan' ? 'planModel' : 'model') };
    } catch (err) {
      const error = uiErrorOf(deps.core, err);
      throw new BusError(error.code, error.message);
    }
    session.fork(session.parentOf(params.messageId));
    this.showSession();
    return deps.send({ text: params.text }, model);
  }

  async switchBranch(params: RequestParams<'session.switchBranch'>): Promise<RequestResult<'session.switchBranch'>> {
    await this.deps.stopAndWait();
    const session = this.writableSession();
    const { messageId } = params;
    const point = session.branchPoints().get(messageId);
    const target = point?.siblings[params.index - 1];
    if (!point || !target) throw new BusError('invalid_params', l10n.t('That message has no version {0}.', params.index));
    if (target !== messageId) session.switchBranch(target);
    this.showSession();
    return { session: { ...this.deps.state.session } };
  }

  /** The whole of a long conversation the view got the end of. */
  async loadEarlier(): Promise<RequestResult<'session.loadEarlier'>> {
    await this.deps.stopAndWait();
    const shown = this.deps.view.hiddenEarlier;
    if (!this.deps.slot.current || shown === 0) return { shown: 0 };
    this.showSession(Number.POSITIVE_INFINITY);
    return { shown };
  }

  /** The view shows the session's active branch again, from the log (after a fork or a switch). */
  private showSession(window = RESUME_WINDOW): void {
    const { deps } = this;
    const project = deps.slot.current;
    if (!project) return;
    const view = conversationView(project.session, window);
    deps.view.hiddenEarlier = view.earlier;
    deps.state.replace(view.messages, view.info, view.usage, project.todos.get());
    deps.state.attachChanges(project.journal?.entries() ?? []);
    deps.state.attachCommandFiles(commandFilesByCall(project.session.fileHistory(), (id) => project.session.isReverted(id)));
    deps.state.attachRules(project.session.rulesFired());
    deps.state.setRun({ approvalMode: project.approvalMode });
    deps.view.sendSnapshot();
  }

  private sessionUi(): SessionUi {
    if (!this.deps.sessionUi) throw new BusError('internal', l10n.t('This window cannot export or delete conversations.'));
    return this.deps.sessionUi;
  }

  private writableSession() {
    const session = this.deps.slot.current?.session;
    if (!session) throw new BusError('invalid_params', l10n.t('There is no saved conversation in view to branch.'));
    if (session.readOnly) throw new BusError('invalid_params', l10n.t('This conversation is read-only here ({0}).', session.readOnlyReason ?? l10n.t('another window')));
    return session;
  }
}
