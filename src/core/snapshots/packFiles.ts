import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit, type GitEnv } from './gitRunner';

/**
 * Packs in Keel's private object folder. A folder's first snapshot writes its blobs into one
 * pack (thousands of loose object files cost seconds of file creation on a busy disk, one
 * pack a fraction of it); what is dropped or pruned later means writing a smaller pack.
 */

/** The packs of an object folder, as paths without `.pack`/`.idx` (only complete ones). */
export async function listPacks(objectsDir: string): Promise<Set<string>> {
  let names: string[];
  try {
    names = await readdir(join(objectsDir, 'pack'));
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return new Set();
    throw err;
  }
  const idx = new Set(names.filter((n) => n.endsWith('.idx')).map((n) => n.slice(0, -4)));
  return new Set(names.filter((n) => n.endsWith('.pack') && idx.has(n.slice(0, -5))).map((n) => join(objectsDir, 'pack', n.slice(0, -5))));
}

/** The object ids one pack holds (read from its index). */
export async function packObjectIds(env: GitEnv, pack: string): Promise<string[]> {
  const out = (await runGit(env, ['show-index'], { input: await readFile(`${pack}.idx`) })).toString('latin1');
  const ids: string[] = [];
  for (const line of out.split('\n')) {
    const oid = line.split(' ')[1];
    if (oid) ids.push(oid);
  }
  return ids;
}

/** Replaces `packs` by one pack of only the `keep` objects (none: the packs just go). */
export async function rewritePacks(env: GitEnv, objectsDir: string, packs: readonly string[], keep: readonly string[]): Promise<void> {
  const written = keep.length === 0 ? undefined : await writePack(env, objectsDir, ['--local'], `${keep.join('\n')}\n`);
  await removePacks(packs.filter((p) => p !== written));
}

/**
 * Keeps only what the given trees and the index reach: every pack is rewritten into one and
 * loose objects outside it are deleted. Blobs whose content was never kept are skipped.
 */
export async function repackReachable(env: GitEnv, objectsDir: string, trees: readonly string[]): Promise<void> {
  const before = [...(await listPacks(objectsDir))];
  const written = await writePack(env, objectsDir, ['--revs', '--local', '--indexed-objects', '--missing=allow-any'], trees.length ? `${trees.join('\n')}\n` : '');
  await removePacks(before.filter((p) => p !== written));
  await runGit(env, ['prune-packed', '-q'], { noWorkTree: true });
}

async function writePack(env: GitEnv, objectsDir: string, flags: readonly string[], input: string): Promise<string | undefined> {
  const base = join(objectsDir, 'pack', 'pack');
  const out = (await runGit(env, ['pack-objects', '-q', '--non-empty', ...flags, base], { input })).toString('utf8').trim();
  return out ? `${base}-${out}` : undefined;
}

/** The index goes first, so git never meets an index whose pack is gone. */
async function removePacks(packs: readonly string[]): Promise<void> {
  for (const pack of packs) {
    await rm(`${pack}.idx`, { force: true });
    for (const ext of ['.pack', '.rev', '.bitmap', '.keep']) await rm(`${pack}${ext}`, { force: true });
  }
}
