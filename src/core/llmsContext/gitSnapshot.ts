import { findGitRepo, mainBranch } from './gitRepo';
import type { GitRepo } from './gitRepo';
import { runGit } from './runGit';

export type GitSnapshot =
  | { kind: 'none' }
  | { kind: 'unavailable'; reason: string }
  | {
      kind: 'repo';
      repo: GitRepo;
      branch?: string;
      /** HEAD is not on a branch. */
      detached: boolean;
      noCommits: boolean;
      upstream?: string;
      ahead: number;
      behind: number;
      mainBranch?: string;
      /** `git status --short` lines. */
      status: string[];
      /** `<hash> <date> <subject>`, newest first. */
      commits: string[];
      /** What could not be read (shown in the section). */
      problems: string[];
    };

export const recentCommitCount = 5;

/**
 * Everything the git section shows, from two git processes run side by side (status with
 * the branch line, and the log); the main branch is read from the ref files.
 */
export async function takeGitSnapshot(folder: string, signal?: AbortSignal): Promise<GitSnapshot> {
  const repo = await findGitRepo(folder);
  if (!repo) return { kind: 'none' };
  const [status, log, main] = await Promise.all([
    runGit(folder, ['status', '--porcelain=v1', '--branch', '--untracked-files=normal'], { signal }),
    runGit(folder, ['log', `-n${recentCommitCount}`, '--format=%h %ad %s', '--date=short'], { signal }),
    mainBranch(repo),
  ]);
  if (status.missing) return { kind: 'unavailable', reason: status.error ?? 'git is not installed' };
  if (!status.ok) return { kind: 'unavailable', reason: `git status failed: ${status.error ?? 'unknown error'}` };
  const lines = status.stdout.split('\n').filter((l) => l !== '');
  const head = lines[0]?.startsWith('## ') ? parseBranchLine(lines.shift()!.slice(3)) : emptyHead();
  const problems: string[] = [];
  // An empty repository has no log; that is not a problem worth reporting.
  if (!log.ok && !head.noCommits) problems.push(`git log failed: ${log.error ?? 'unknown error'}`);
  return {
    kind: 'repo',
    repo,
    ...head,
    mainBranch: main,
    status: lines,
    commits: log.ok ? log.stdout.split('\n').filter((l) => l !== '') : [],
    problems,
  };
}

interface Head {
  branch?: string;
  detached: boolean;
  noCommits: boolean;
  upstream?: string;
  ahead: number;
  behind: number;
}

function emptyHead(): Head {
  return { detached: false, noCommits: false, ahead: 0, behind: 0 };
}

/** The `## ...` line of `git status --branch`. */
export function parseBranchLine(line: string): Head {
  const head = emptyHead();
  const noCommits = /^(?:No commits yet|Initial commit) on (.+)$/.exec(line);
  if (noCommits) return { ...head, branch: noCommits[1], noCommits: true };
  if (line.startsWith('HEAD (no branch)')) return { ...head, detached: true };
  const match = /^(.+?)(?:\.\.\.(\S+))?(?: \[(.+)\])?$/.exec(line);
  if (!match) return { ...head, branch: line };
  head.branch = match[1];
  if (match[2]) head.upstream = match[2];
  for (const part of (match[3] ?? '').split(', ')) {
    const [word, n] = part.split(' ');
    if (word === 'ahead') head.ahead = Number(n);
    if (word === 'behind') head.behind = Number(n);
  }
  return head;
}
