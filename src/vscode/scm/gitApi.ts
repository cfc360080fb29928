import * as vscode from 'vscode';

// The part of VS Code's built-in git extension API Keel uses (its `getAPI(1)`; the extension
// ships the full typings in its repository, not on npm).
export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
}

interface GitApi {
  readonly repositories: readonly GitRepository[];
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/**
 * The repository a source control command is about: the one whose view it was run from (the
 * SCM title passes its SourceControl), else the innermost one holding the active editor's file,
 * else the first. Undefined when git is off or no repository is open.
 */
export async function gitRepositoryFor(arg: unknown): Promise<GitRepository | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports.enabled) return undefined;
  const repositories = exports.getAPI(1).repositories;
  const asked = (arg as { rootUri?: unknown } | undefined)?.rootUri;
  if (asked instanceof vscode.Uri) {
    const found = repositories.find((r) => r.rootUri.toString() === asked.toString());
    if (found) return found;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file') {
    const holding = repositories
      .filter((r) => active.fsPath === r.rootUri.fsPath || active.fsPath.startsWith(`${r.rootUri.fsPath}/`))
      .sort((a, b) => b.rootUri.fsPath.length - a.rootUri.fsPath.length)[0];
    if (holding) return holding;
  }
  return repositories[0];
}
