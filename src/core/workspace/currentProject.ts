import type { ModelMessage } from 'ai';
import type { Workspace, WorkspaceFolder } from './workspace';

/**
 * The folder a session recorded as its current project (by real path, so renaming the
 * folder in the `.code-workspace` keeps it), or the workspace's first folder when none was
 * recorded. A recorded folder that left the workspace gives a warning and the first folder.
 */
export function recordedProject(workspace: Workspace, recordedPath: string | undefined): { folder: WorkspaceFolder; warning?: string } {
  if (recordedPath === undefined) return { folder: workspace.current };
  const folder = workspace.folders.find((f) => f.path === recordedPath);
  if (folder) return { folder };
  return {
    folder: workspace.current,
    warning: `This conversation's current project ${recordedPath} is not a folder of this workspace any more; ${workspace.current.name} is current instead.`,
  };
}

/** The workspace folders (names) the given absolute paths lie in, each once, in order of first appearance. */
export function projectsOf(workspace: Workspace, paths: readonly string[]): string[] {
  const names: string[] = [];
  for (const p of paths) {
    const name = workspace.folderOf(p)?.name;
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The ids of the tool results a tool message carries. */
export function toolResultIds(message: ModelMessage): string[] {
  if (message.role !== 'tool') return [];
  return message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []));
}
