import * as l10n from '@vscode/l10n';
import { exportSource } from '../../core/session';
import { BusError } from '../../protocol/busError';
import type { RequestParams, RequestResult } from '../../protocol/catalogue';
import type { LogFn } from '../../protocol/log';
import type { ConversationWindow } from '../conversations/conversationWindow';
import { loadSession } from '../conversations/conversationLoad';
import type { CoreAccess } from '../runtime/coreAccess';
import { sessionsPage } from '../runtime/coreQueries';
import type { ExportFormat, SessionUi } from './sessionUi';
import type { WorktreeSessionHooks } from './worktreeCores';

export interface SessionActionsDeps {
  /** The window's core: where its sessions are listed, opened and deleted. */
  core: CoreAccess;
  log: LogFn;
  window: ConversationWindow;
  sessionUi?: SessionUi;
  worktrees?: WorktreeSessionHooks;
}

/** Options of a new conversation; see ChatController.newSession. */
export interface NewChatOptions {
  /** Where its Context comes from (default: the window's core). */
  core?: CoreAccess;
  /** The branch shown on it (a worktree's). */
  branch?: string;
}

/**
 * What the person does with whole conversations: start a new one, open another (the one in
 * view keeps running in the background), rename, delete, export.
 */
export class SessionActions {
  constructor(private readonly deps: SessionActionsDeps) {}

  async newSession(options: NewChatOptions = {}): Promise<RequestResult<'session.new'>> {
    const { window } = this.deps;
    const before = window.inView;
    const next = window.create(options.core);
    if (options.branch) next.state.setSession({ id: null, title: null, branch: options.branch });
    next.slot.choice.carryOver(before.slot.current, before.slot.choice);
    next.state.setRun({ mode: before.state.run.mode, approvalMode: before.state.run.approvalMode });
    await window.show(next);
    return { session: { id: null, title: null } };
  }

  async resume(id: string): Promise<RequestResult<'sessions.resume'>> {
    const { window } = this.deps;
    const open = window.find(id);
    if (open) {
      await window.show(open);
      return { session: { ...open.state.session } };
    }
    // A conversation that worked in a git worktree works there again.
    const core = (await this.deps.worktrees?.coreFor(id)) ?? this.deps.core;
    const { ctx } = await core.get();
    const next = window.create(core);
    loadSession(next, ctx, id, this.deps.log);
    try {
      await window.show(next);
    } catch (err) {
      void next.close();
      throw err;
    }
    return { session: { ...next.state.session } };
  }

  async list(params: RequestParams<'sessions.list'>): Promise<RequestResult<'sessions.list'>> {
    const { ctx } = await this.deps.core.get();
    const { window } = this.deps;
    // The conversation in view and one waiting its turn are listed before their first message is saved.
    const page = sessionsPage(ctx, params, (id) => id === window.inView.sessionId || window.activityOf(id) !== undefined);
    return {
      ...page,
      sessions: page.sessions.map((s) => {
        const activity = window.activityOf(s.id);
        return activity ? { ...s, activity } : s;
      }),
    };
  }

  async rename(id: string, title: string): Promise<RequestResult<'sessions.rename'>> {
    const open = this.deps.window.find(id);
    const current = open?.slot.current?.session;
    if (open && current && !current.readOnly) {
      current.appendConfig('title', title.trim());
      const shown = current.summary().title;
      open.state.setSession({ id, title: shown || null });
      return { title: shown };
    }
    const { ctx } = await this.deps.core.get();
    return { title: ctx.sessions.rename(id, title).title };
  }

  /** Asks first; a running conversation is stopped, and the one in view is replaced by a new one, before its log goes. */
  async delete(id: string): Promise<RequestResult<'sessions.delete'>> {
    const ui = this.sessionUi();
    const { ctx } = await this.deps.core.get();
    const stored = ctx.sessions.open(id, { readOnly: true });
    const title = stored.summary().title;
    const worktree = stored.config().worktree;
    stored.close();
    if (!(await ui.confirmDelete(title))) return { deleted: false };
    const { window } = this.deps;
    const open = window.find(id);
    if (open) {
      await open.stopAndWait();
      if (open === window.inView) await this.newSession();
      else window.close(open);
    }
    ctx.sessions.delete(id);
    window.forget(id);
    if (worktree) await this.deps.worktrees?.deleted(worktree);
    return { deleted: true };
  }

  async export(id: string, format: ExportFormat): Promise<RequestResult<'sessions.export'>> {
    const ui = this.sessionUi();
    const { ctx } = await this.deps.core.get();
    // Read from disk without the lock: an open conversation may be exported too.
    const stored = ctx.sessions.open(id, { readOnly: true });
    let source: ReturnType<typeof exportSource>;
    try {
      source = exportSource(stored);
    } finally {
      stored.close();
    }
    return { exported: await ui.exportSession(source, format) };
  }

  private sessionUi(): SessionUi {
    if (!this.deps.sessionUi) throw new BusError('internal', l10n.t('This window cannot export or delete conversations.'));
    return this.deps.sessionUi;
  }
}
