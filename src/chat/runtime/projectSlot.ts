import type { Context } from '../../core/context';
import { errorMessage } from '../../core/errors';
import { Project } from '../../core/project';
import type { QueuedRun, RunQueue } from '../../core/runQueue';
import type { Session } from '../../core/session';
import type { TodoItem as CoreTodoItem } from '../../core/tools';
import type { LogFn } from '../../protocol/log';
import type { TodoItem } from '../../protocol/sessionState';
import { WorkspaceProjectChoice } from '../settings/workspaceProjectChoice';

/**
 * The conversation in view (one Project at a time): made when the first message needs it,
 * given the new configuration when the settings change, closed when another takes its place.
 */
export class ProjectSlot {
  private project: Project | undefined;
  /** The workspace folder chosen for a conversation that does not exist yet. */
  readonly choice = new WorkspaceProjectChoice();
  private unsubscribeTodos: (() => void) | undefined;
  private readonly log: LogFn;
  private readonly onTodos: (items: TodoItem[]) => void;
  /** The conversation's one queue, lent to every Project it opens. */
  private readonly queue: RunQueue<QueuedRun>;

  constructor(log: LogFn, onTodos: (items: TodoItem[]) => void, queue: RunQueue<QueuedRun>) {
    this.log = log;
    this.onTodos = onTodos;
    this.queue = queue;
  }

  get current(): Project | undefined {
    return this.project;
  }

  /** The conversation to run in with this core: the current one (on this core from now on), or a new one. */
  for(ctx: Context): Project {
    const current = this.project;
    if (current && current.ctx.sessions.key === ctx.sessions.key) {
      // The settings changed between runs: same conversation, new configuration; what it holds stays.
      current.useContext(ctx);
      return current;
    }
    if (current) {
      this.log('info', 'The workspace changed; the next message starts a new conversation.');
      void this.close();
    }
    const project = this.open(ctx, ctx.sessions.create());
    if (ctx.worktree) project.session.appendConfig('worktree', ctx.worktree);
    this.choice.applyTo(project);
    return project;
  }

  /**
   * Makes `session` the conversation's (a new one, or a stored one resumed, with the todos its
   * log left); its runs go through the conversation's queue.
   */
  open(ctx: Context, session: Session, todos: readonly CoreTodoItem[] = []): Project {
    const project = new Project(ctx, session, { queue: this.queue });
    if (todos.length > 0) project.todos.set(todos);
    this.set(project);
    return project;
  }

  private set(project: Project): void {
    this.unsubscribeTodos?.();
    this.project = project;
    this.unsubscribeTodos = project.todos.onChange((items) => this.onTodos(items.map((i) => ({ ...i }))));
  }

  /**
   * Releases the session at once; the returned promise ends when its background commands have
   * stopped and its snapshots are written (shutdown waits for that, a switch does not).
   */
  close(): Promise<void> {
    this.unsubscribeTodos?.();
    this.unsubscribeTodos = undefined;
    const project = this.project;
    this.project = undefined;
    if (!project) return Promise.resolve();
    // Its background commands end with the conversation (the log stays as it is).
    const disposed = project.dispose().catch((err: unknown) => this.log('warn', `stopping background commands failed: ${errorMessage(err)}`));
    try {
      project.session.close();
    } catch (err) {
      this.log('warn', `closing session ${project.session.id} failed: ${errorMessage(err)}`);
    }
    return disposed;
  }
}
