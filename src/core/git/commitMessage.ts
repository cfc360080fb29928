import type { LanguageModel } from 'ai';
import { runGit } from '../llmsContext/runGit';
import { modelText } from '../model/modelText';

/** What a commit message is written from. */
export interface CommitChanges {
  /** The staged diff, or every change to tracked files when nothing is staged. */
  diff: string;
  /** False: nothing was staged, so the diff is all of the working tree's changes. */
  staged: boolean;
  /** Files git does not track yet (only when nothing is staged: `git commit -a` leaves them out, but the person may add them). */
  untracked: string[];
  /** Subjects of the repository's latest commits, newest first: the style to follow. */
  recentSubjects: string[];
}

/** Enough of a diff for a message; the rest costs tokens and a small model loses the thread in it. */
const maxDiffChars = 16_000;
const recentCount = 12;

/**
 * The changes a commit message describes, read with Keel's hardened git (the repository's own
 * programs off): the staged diff, or all changes when nothing is staged. Undefined when there is
 * nothing to commit; throws with git's reason when git itself fails.
 */
export async function readCommitChanges(root: string, signal?: AbortSignal): Promise<CommitChanges | undefined> {
  const opts = signal ? { signal } : {};
  const [staged, log] = await Promise.all([
    runGit(root, ['diff', '--cached', '--no-color', '--no-ext-diff'], opts),
    runGit(root, ['log', `-n${recentCount}`, '--format=%s'], opts),
  ]);
  if (!staged.ok) throw new Error(`git diff --cached failed: ${staged.error ?? 'unknown error'}`);
  // A repository without commits has no log: there is no style to follow yet.
  const recentSubjects = log.ok ? log.stdout.split('\n').filter((l) => l.trim() !== '') : [];
  if (staged.stdout.trim()) return { diff: staged.stdout, staged: true, untracked: [], recentSubjects };
  const [all, others] = await Promise.all([
    runGit(root, ['diff', 'HEAD', '--no-color', '--no-ext-diff'], opts),
    runGit(root, ['ls-files', '--others', '--exclude-standard'], opts),
  ]);
  const untracked = others.ok ? others.stdout.split('\n').filter((l) => l !== '') : [];
  const diff = all.ok ? all.stdout : '';
  if (!diff.trim() && untracked.length === 0) return undefined;
  return { diff, staged: false, untracked, recentSubjects };
}

const INSTRUCTIONS = [
  'You write git commit messages for the changes you are shown.',
  "Follow the style of the repository's recent commit subjects when there are some: their language, prefixes (such as `feat:` or a scope), capitalisation, tense and length.",
  'Reply with the commit message only: a subject line of at most 72 characters; then, only if the change needs explaining, a blank line and a short body wrapped at 72 characters.',
  'No code fences, no quotes, no preamble.',
].join('\n');

/** The prompt's text for `changes` (exported for tests). */
export function commitPrompt(changes: CommitChanges): string {
  const parts: string[] = [];
  parts.push(changes.recentSubjects.length ? `Recent commit subjects (newest first):\n${changes.recentSubjects.join('\n')}` : 'The repository has no commits yet.');
  let diff = changes.diff.trimEnd();
  if (diff.length > maxDiffChars) diff = `${diff.slice(0, maxDiffChars)}\n[... ${diff.length - maxDiffChars} more characters of the diff left out]`;
  parts.push(`${changes.staged ? 'The staged changes' : 'The changes (nothing is staged, so this is every change to tracked files)'}:\n${diff || '(none)'}`);
  if (changes.untracked.length) parts.push(`New files not yet tracked:\n${changes.untracked.slice(0, 50).join('\n')}`);
  return parts.join('\n\n');
}

/** The model's reply as a commit message: fences, quotes and a "Commit message:" label removed. */
export function cleanCommitMessage(text: string): string {
  let out = text.trim();
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```$/.exec(out);
  if (fenced) out = fenced[1]!.trim();
  out = out.replace(/^(commit message|message):\s*/i, '');
  if (/^(["'`])[\s\S]*\1$/.test(out) && !out.includes('\n')) out = out.slice(1, -1);
  return out.trim();
}

/**
 * Writes a commit message for `changes` with `model` (the small model), streaming the text so far
 * to `onText` as it arrives. Returns the cleaned message.
 */
export async function writeCommitMessage(model: LanguageModel, changes: CommitChanges, onText: (soFar: string) => void, signal?: AbortSignal): Promise<string> {
  let soFar = '';
  const result = await modelText(
    model,
    {
      system: INSTRUCTIONS,
      messages: [{ role: 'user', content: commitPrompt(changes) }],
      maxOutputTokens: 400,
      ...(signal ? { signal } : {}),
    },
    0,
    (delta) => {
      soFar += delta;
      onText(soFar);
    },
  );
  return cleanCommitMessage(result.text);
}
