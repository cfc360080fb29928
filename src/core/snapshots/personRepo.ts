import { copyFile, rm } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { GitError, readPersonGit, runGit, type GitEnv } from './gitRunner';
import { fileExists } from './fileExists';

/** The person's object folder and index, when the work tree is (inside) a git repository. */
export async function personObjects(workTree: string): Promise<{ objects: string; index: string; gitDir: string } | undefined> {
  const out = await readPersonGit(workTree, ['rev-parse', '--show-toplevel', '--git-path', 'objects', '--git-path', 'index', '--git-dir', '--show-object-format']);
  if (!out) return undefined;
  const [top, objects, index, gitDir, format] = out.split('\n');
  // Only the repository's own root is seeded from its index: the paths must be the same.
  if (!top || !objects || !index || !gitDir || format !== 'sha1') return undefined;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(workTree, p));
  const objectsDir = abs(objects);
  if (!(await fileExists(objectsDir))) return undefined;
  return { objects: objectsDir, index: resolve(top) === resolve(workTree) ? abs(index) : '', gitDir: abs(gitDir) };
}

/**
 * Starts Keel's index from a copy of the person's (read, never written), so the first
 * snapshot of a large repository reads only the files that differ from it. Not when the
 * person's blobs may differ from the bytes on disk (attributes, autocrlf, skip-worktree).
 */
export async function seedIndex(env: GitEnv, personIndex: string): Promise<void> {
  if (!personIndex || !(await fileExists(personIndex))) return;
  const cwd = env.workTree;
  const autocrlf = (await readPersonGit(cwd, ['config', '--get', 'core.autocrlf']))?.trim();
  if (autocrlf === 'true' || autocrlf === 'input') return;
  const attributes = await readPersonGit(cwd, ['ls-files', '-z', '--', ':(glob)**/.gitattributes']);
  if (attributes === undefined || attributes !== '') return;
  const infoAttributes = (await readPersonGit(cwd, ['rev-parse', '--git-path', 'info/attributes']))?.trim();
  if (infoAttributes && (await fileExists(resolve(cwd, infoAttributes)))) return;
  const flags = await readPersonGit(cwd, ['ls-files', '-v']);
  if (flags === undefined || /^[a-zS]/m.test(flags)) return;
  await copyFile(personIndex, env.indexFile);
  try {
    await runGit(env, ['update-index', '--index-version', '4']);
  } catch (err) {
    // A split or damaged index cannot be borrowed: the first snapshot reads every file instead.
    if (!(err instanceof GitError)) throw err;
    await rm(env.indexFile, { force: true });
  }
}
