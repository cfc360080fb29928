import { runGit } from '../llmsContext/runGit';

/** What "Review Changes" looks at: uncommitted work, else the branch since it left its base. */
export type ReviewTarget = { kind: 'uncommitted' } | { kind: 'branch'; branch: string; base: string; commits: number } | { kind: 'nothing' };

/** Branches a feature branch usually leaves, tried in this order when the remote names no default. */
const usualBases = ['main', 'master', 'trunk', 'develop', 'origin/main', 'origin/master'];

/**
 * Uncommitted changes come first; with none, the current branch's commits since its base (the
 * remote's default branch, else main, master, …). `nothing` when the tree is clean and the
 * branch has no commits of its own (or is the base itself). Read with Keel's hardened git.
 */
export async function reviewTarget(root: string, signal?: AbortSignal): Promise<ReviewTarget> {
  const opts = signal ? { signal } : {};
  const status = await runGit(root, ['status', '--porcelain'], opts);
  if (!status.ok) throw new Error(`git status failed: ${status.error ?? 'unknown error'}`);
  if (status.stdout.trim() !== '') return { kind: 'uncommitted' };
  const head = await runGit(root, ['rev-parse', '--abbrev-ref', 'HEAD'], opts);
  const branch = head.ok ? head.stdout.trim() : '';
  const remoteDefault = await runGit(root, ['rev-parse', '--abbrev-ref', 'origin/HEAD'], opts);
  const candidates = [...(remoteDefault.ok && remoteDefault.stdout.trim() ? [remoteDefault.stdout.trim()] : []), ...usualBases];
  for (const base of candidates) {
    if (base === branch || base === `origin/${branch}`) continue;
    const exists = await runGit(root, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`], opts);
    if (!exists.ok) continue;
    const log = await runGit(root, ['log', '--format=%h', `${base}..HEAD`, '--'], opts);
    const commits = log.ok ? log.stdout.split('\n').filter((l) => l.trim() !== '').length : 0;
    return commits > 0 ? { kind: 'branch', branch: branch || 'HEAD', base, commits } : { kind: 'nothing' };
  }
  return { kind: 'nothing' };
}
