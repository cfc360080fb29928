import type { GitSnapshot } from './gitSnapshot';

export const maxStatusLines = 40;

/** The git section's text: branch, main branch, short status (capped) and recent commits. */
export function renderGitSection(snap: GitSnapshot): string {
  if (snap.kind === 'none') return 'The workspace is not in a git repository.';
  if (snap.kind === 'unavailable') return `Git state unavailable: ${snap.reason}.`;
  const lines: string[] = [];
  let branch: string;
  if (snap.detached) branch = 'detached HEAD (not on a branch)';
  else branch = snap.branch ?? 'unknown';
  if (snap.noCommits) branch += ' (no commits yet)';
  const tracking: string[] = [];
  if (snap.upstream) tracking.push(`tracking ${snap.upstream}`);
  if (snap.ahead) tracking.push(`ahead ${snap.ahead}`);
  if (snap.behind) tracking.push(`behind ${snap.behind}`);
  lines.push(`Current branch: ${branch}${tracking.length ? ` (${tracking.join(', ')})` : ''}`);
  if (snap.mainBranch) lines.push(`Main branch (usually the target of pull requests): ${snap.mainBranch}`);
  if (snap.status.length === 0) {
    lines.push('Status: clean (no changes, no untracked files)');
  } else {
    lines.push(`Status (git status --short, ${snap.status.length} ${snap.status.length === 1 ? 'entry' : 'entries'}):`);
    lines.push(...snap.status.slice(0, maxStatusLines));
    const more = snap.status.length - maxStatusLines;
    if (more > 0) lines.push(`[... ${more} more entries not shown; run \`git status\` for all]`);
  }
  if (snap.commits.length) lines.push('Recent commits:', ...snap.commits);
  for (const p of snap.problems) lines.push(`(${p})`);
  return lines.join('\n');
}
