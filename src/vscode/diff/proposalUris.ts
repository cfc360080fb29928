import * as vscode from 'vscode';

/** The proposed side of a Keel diff: an editable in-memory document (see ProposedFileSystem). */
export const PROPOSED_SCHEME = 'keel-proposed';
/** The current side: a read-only snapshot of the file as the agent saw it. */
export const ORIGINAL_SCHEME = 'keel-original';

/**
 * `keel-proposed:/<displayPath>?<approvalId>`: the path is the file's, so the breadcrumb and
 * the editor's language read like the file itself, and the approval rides in the query so
 * two proposals for one file never share a document.
 */
export function proposalUri(scheme: typeof PROPOSED_SCHEME | typeof ORIGINAL_SCHEME, approvalId: string, displayPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${displayPath.replace(/^\/+/, '')}`, query: approvalId });
}

/** The approval a Keel diff document belongs to, or undefined for any other document. */
export function approvalIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== PROPOSED_SCHEME && uri.scheme !== ORIGINAL_SCHEME) return undefined;
  return uri.query ? uri.query : undefined;
}
