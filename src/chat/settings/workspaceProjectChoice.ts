import type { Context } from '../../core/context';
import type { Project } from '../../core/project';
import { describeProjects } from '../../core/workspace';
import type { WorkspaceProjects } from '../../protocol/sessionState';

/**
 * Which workspace folder is the current project of the chat (multi-root). A conversation's
 * Project keeps its own (recorded in its session); before a conversation exists, or for the
 * next new chat, the choice waits here and is given to the Project that gets created.
 */
export class WorkspaceProjectChoice {
  /** A folder name chosen while no conversation was open. */
  private pending: string | undefined;

  /** The current project's name: the conversation's, else the one chosen for the next, else the first folder. */
  currentName(ctx: Context, project: Project | undefined): string {
    const own = project && project.ctx.sessions.key === ctx.sessions.key ? project.currentWorkspaceProject.name : undefined;
    // The folders may have changed under the same workspace file: a name that left falls back below.
    if (own !== undefined && ctx.workspace.folderNamed(own)) return own;
    if (this.pending !== undefined && ctx.workspace.folderNamed(this.pending)) return this.pending;
    return ctx.workspace.current.name;
  }

  /**
   * Makes `name` current: on the open conversation (recorded in its log) or for the next one.
   * An unknown name throws, naming the folders that exist.
   */
  select(ctx: Context, project: Project | undefined, name: string): void {
    const folder = ctx.workspace.withCurrent(name).current;
    if (project && project.ctx.sessions.key === ctx.sessions.key) project.selectWorkspaceProject(folder.name);
    else this.pending = folder.name;
  }

  /** A new conversation was created: it starts in the chosen project. */
  applyTo(project: Project): void {
    if (this.pending === undefined) return;
    if (project.ctx.workspace.folderNamed(this.pending)) project.selectWorkspaceProject(this.pending);
    this.pending = undefined;
  }

  /** A new chat: it starts where the conversation before it was, or in the folder chosen before that one began. */
  carryOver(project: Project | undefined, before?: WorkspaceProjectChoice): void {
    if (project) this.pending = project.currentWorkspaceProject.name;
    else if (before) this.pending = before.pending;
  }
}

/** The list the view shows: every folder with its type and branch, and the current one. */
export async function workspaceProjectsFor(ctx: Context, current: string): Promise<WorkspaceProjects> {
  const infos = await describeProjects(ctx.workspace.withCurrent(current));
  return {
    projects: infos.map((p) => ({ name: p.name, path: p.path, type: p.type ?? null, branch: p.branch ?? null })),
    current,
  };
}
