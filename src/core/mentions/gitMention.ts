import { findGitRepo } from '../llmsContext/gitRepo';
import { runGit } from '../llmsContext/runGit';
import type { MentionBody } from './fileMentions';

/** The working tree's changes against HEAD (staged and not), and the untracked files. */
export async function expandGitDiff(folder: string, signal?: AbortSignal): Promise<MentionBody> {
  if (!(await findGitRepo(folder))) return { ok: false, reason: 'the workspace is not in a git repository' };
  const [diff, untracked] = await Promise.all([
    runGit(folder, ['diff', 'HEAD', '--no-color', '--no-ext-diff'], { signal }),
    runGit(folder, ['ls-files', '--others', '--exclude-standard'], { signal }),
  ]);
  let text: string;
  if (diff.ok) text = diff.stdout.trimEnd();
  else if (/unknown revision|bad revision|ambiguous argument 'HEAD'/i.test(diff.error ?? '')) {
    // No commit yet: everything staged is new; show the staged and unstaged diffs instead.
    const [staged, unstaged] = await Promise.all([
      runGit(folder, ['diff', '--cached', '--no-color', '--no-ext-diff'], { signal }),
      runGit(folder, ['diff', '--no-color', '--no-ext-diff'], { signal }),
    ]);
    text = `(no commits yet)\n${[staged.stdout, unstaged.stdout].join('\n').trim()}`;
  } else {
    return { ok: false, reason: `git diff failed: ${diff.error ?? 'unknown error'}` };
  }
  const newFiles = untracked.ok ? untracked.stdout.split('\n').filter((l) => l !== '') : [];
  const parts: string[] = [];
  // The short list first, so a long diff cut to fit the budget cannot hide it.
  if (newFiles.length) parts.push(`Untracked files (${newFiles.length}):\n${newFiles.slice(0, 100).join('\n')}${newFiles.length > 100 ? `\n[... ${newFiles.length - 100} more]` : ''}`);
  parts.push(text === '' ? 'No changes to tracked files (git diff HEAD is empty).' : `git diff HEAD:\n${text}`);
  return { ok: true, body: parts.join('\n\n'), hint: 'run git diff for the rest' };
}

/** The branch's work since it left `base`: its commits (newest first) and `git diff base...HEAD`. */
export async function expandBranchDiff(folder: string, base: string, signal?: AbortSignal): Promise<MentionBody> {
  if (!(await findGitRepo(folder))) return { ok: false, reason: 'the workspace is not in a git repository' };
  // A base that reads as an option would be one to git: refused before git sees it.
  if (base.startsWith('-')) return { ok: false, reason: `"${base}" is not a branch` };
  const [log, diff] = await Promise.all([
    runGit(folder, ['log', '--format=%h %s', '-n', '50', `${base}..HEAD`, '--'], { signal }),
    runGit(folder, ['diff', '--no-color', '--no-ext-diff', `${base}...HEAD`, '--'], { signal }),
  ]);
  if (!diff.ok) return { ok: false, reason: `git diff ${base}...HEAD failed: ${diff.error ?? 'unknown error'}` };
  const commits = log.ok ? log.stdout.trim() : '';
  const parts = [`Commits on this branch since ${base} (newest first):\n${commits || '(none)'}`];
  parts.push(diff.stdout.trim() === '' ? `No changes since ${base}.` : `git diff ${base}...HEAD:\n${diff.stdout.trimEnd()}`);
  return { ok: true, body: parts.join('\n\n'), hint: `run git diff ${base}...HEAD for the rest` };
}
