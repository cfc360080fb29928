import * as vscode from 'vscode';

/** The proposed side of a Keel diff: an editable in-memory document (see ProposedFileSystem). */
export const PROPOSED_SCHEME = 'keel-proposed';
/** The current side: a read-only snapshot of the file as the agent saw it. */
export const ORIGINAL_SCHEME = 'keel-original';

/**
 * The first folder of every diff document's path. package.json gives TypeScript and JavaScript
 * files under it languages of Keel's own (`keel-proposal-*`, highlighted by the original
 * grammar): VS Code's TypeScript features run a language server over every open document of
 * theirs whatever its scheme, and for these two in-memory documents it only parsed and outlined
 * them while the diff was drawn (0.4–1.3 s of tsserver CPU for a 10,000-line file).
 */
export const PROPOSAL_FOLDER = 'keel-proposal';

/**
 * `keel-proposed:/keel-proposal/<displayPath>?<approvalId>`: below the one fixed folder the path
 * is the file's, so the breadcrumb reads like the file and the editor picks its language; the
 * approval rides in the query so two proposals for one file never share a document.
 */
export function proposalUri(scheme: typeof PROPOSED_SCHEME | typeof ORIGINAL_SCHEME, approvalId: string, displayPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme, path: `/${PROPOSAL_FOLDER}/${displayPath.replace(/^\/+/, '')}`, query: approvalId });
}

/** The approval a Keel diff document belongs to, or undefined for any other document. */
export function approvalIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== PROPOSED_SCHEME && uri.scheme !== ORIGINAL_SCHEME) return undefined;
  return uri.query ? uri.query : undefined;
}
