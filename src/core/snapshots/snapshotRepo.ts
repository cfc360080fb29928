import { appendFile, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GitError, readPersonGit, runGit, type GitEnv } from './gitRunner';
import { excludeGitlinks } from '../git/hostGit';
import type { GitFileState, GitMode } from './gitBlobId';
import { blobHeadsByFile, blobHeadsByGit, catBlobs } from './blobHeads';
import { listLooseObjects, looseObjectPath, type BlobHead } from './looseObjects';
import { initStore } from './storeInit';
import { scanPack } from './packScan';
import { markBusy, recoverLeftovers, type Recovery } from './crashLeftovers';
import { listPacks, packObjectIds, repackReachable, rewritePacks } from './packFiles';
import { fileExists } from './fileExists';

/**
 * Why git plumbing in a private repository: git already knows what the person would commit
 * (.gitignore, info/exclude, the global excludes), and its index is a stat cache, so after the
 * first snapshot only files whose size or time changed are read again (50,000 files in well
 * under 200 ms). Keel's GIT_DIR and index live under KEEL_HOME, next to the conversation; the
 * workspace is only the work tree, and the person's objects are borrowed read-only through
 * `alternates`, so a tracked file costs nothing to keep. The person's repository, index, stash
 * and refs are never written: nothing here runs without Keel's own GIT_DIR and GIT_INDEX_FILE.
 */

/** What a first snapshot syncs (its trees as one pack, see `packBulk`); `storeInit` has what other snapshots sync. */
const durableBulk = 'pack,pack-metadata,index';

/** Never worth keeping in a workspace that has no .gitignore of its own to say so. */
const defaultExcludes = ['node_modules/', '.venv/', 'venv/', '__pycache__/', '.DS_Store', '.git/'];


export interface SnapshotRepoOptions {
  /** Folder of Keel's private repository for this workspace folder. */
  dir: string;
  /** The workspace folder. */
  workTree: string;
  /** Larger files are recorded by id only: their content is not kept. */
  maxFileBytes: number;
  /** Told what an earlier, killed process left in the store and what was done about it. */
  log?(level: 'info' | 'warn', message: string): void;
}

export interface Snapshot {
  tree: string;
  /** The tree of this store's snapshot just before, when `delta` is the diff from it. */
  base?: string;
  delta?: TreeDelta[];
  /** Blob ids whose content was not kept (too large, or binary): they cannot be put back. */
  dropped: Map<string, 'large' | 'binary'>;
  /** Git repositories inside the work tree (relative, with `/`): git records only their commit, so each gets a store of its own. */
  nested: string[];
}

/** One path that differs between two snapshots; null: absent on that side. */
export interface TreeDelta {
  /** Relative to the work tree, with `/`. */
  path: string;
  before: GitFileState | null;
  after: GitFileState | null;
}

/**
 * glibc hands the zlib buffers of every streamed blob back to the system and asks for them
 * again (two system calls per file): for thousands of files, a bulk add spends most of its
 * time there. Keeping freed memory in the process avoids it; other C libraries ignore this.
 */
function bulkMalloc(): Record<string, string> {
  const keep = 'glibc.malloc.trim_threshold=67108864:glibc.malloc.top_pad=67108864';
  const theirs = process.env.GLIBC_TUNABLES;
  return { GLIBC_TUNABLES: theirs ? `${theirs}:${keep}` : keep };
}

function isFileMode(mode: string | undefined): mode is GitMode {
  return mode === '100644' || mode === '100755' || mode === '120000';
}

export class SnapshotRepo {
  readonly env: GitEnv;
  readonly objectsDir: string;
  private ready: Promise<void> | undefined;
  private personExclude: string | null | undefined;
  /** Bytes kept, counted once and then kept up to date as objects are added and pruned. */
  private used: number | undefined;
  private droppedLog: Map<string, 'large' | 'binary'> | undefined;
  private lastTree: string | undefined;
  private readonly nested = new Set<string>();

  constructor(private readonly opts: SnapshotRepoOptions) {
    this.env = { gitDir: join(opts.dir, 'git'), indexFile: join(opts.dir, 'index'), workTree: opts.workTree };
    this.objectsDir = join(this.env.gitDir, 'objects');
  }

  /** Why a blob's content was not kept, for blobs dropped by any snapshot of this store (also earlier runs). */
  async droppedReason(oid: string): Promise<'large' | 'binary' | undefined> {
    if (!this.droppedLog) {
      this.droppedLog = new Map();
      const text = await readFile(join(this.opts.dir, 'dropped'), 'utf8').catch((err: unknown) => {
        if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return '';
        throw err;
      });
      for (const line of text.split('\n')) {
        const [id, why] = line.split(' ');
        if (id && (why === 'large' || why === 'binary')) this.droppedLog.set(id, why);
      }
    }
    return this.droppedLog.get(oid);
  }

  /** Records the work tree as git sees it; returns the tree id and what was not kept. */
  async snapshot(): Promise<Snapshot> {
    await this.init();
    const done = await markBusy(this.opts.dir);
    try {
      return await this.take();
    } finally {
      await done();
    }
  }

  private async take(): Promise<Snapshot> {
    await this.refreshExcludes();
    const base = this.lastTree;
    // This store's first snapshot in this process may meet thousands of new files: their blobs
    // go into one pack (git streams every file over core.bigFileThreshold into a single pack
    // during `add`) instead of one loose file each. Later snapshots meet a few changed files,
    // whose loose objects are cheap and can be deleted one by one when they are not kept.
    const bulk = base === undefined;
    const packsBefore = bulk ? await listPacks(this.objectsDir) : undefined;
    const looseBefore = bulk ? await listLooseObjects(this.objectsDir) : undefined;
    // The nested repositories the index holds are known before `add`, so it can leave them out.
    if (bulk) await this.listNested();
    let changed = true;
    try {
      changed = (await this.add(bulk)).length > 0;
    } catch (err) {
      // A file vanishing or unreadable mid-scan is not a reason to record nothing.
      if (!(err instanceof GitError) || err.exitCode !== 1) throw err;
      // A repository inside without a commit yet is not even recorded as one: git says so.
      for (const m of err.stderr.matchAll(/^error: '(.+)\/' does not have a commit checked out$/gm)) this.nested.add(m[1]!);
    }
    // `add -v` names every path whose entry changed: nothing named, the tree is the last one.
    // A first snapshot's trees (one per folder) are synced once, in a pack, not one by one.
    const writeTree = async (): Promise<string> =>
      !changed && base !== undefined ? base : (await runGit(this.env, [...(bulk ? ['-c', `core.fsync=${durableBulk}`] : []), 'write-tree', '--missing-ok'])).toString('utf8').trim();
    let tree: string;
    let delta: TreeDelta[] | undefined;
    const loose: string[] = [];
    const packed = new Map<string, string[]>();
    const known = new Map<string, BlobHead>();
    if (bulk) {
      // The new pack is read while git writes the trees.
      [tree] = await Promise.all([writeTree(), this.scanNewPacks(packsBefore!, packed, known), this.listNested()]);
      for (const oid of await listLooseObjects(this.objectsDir)) if (!looseBefore!.has(oid)) loose.push(oid);
    } else {
      tree = await writeTree();
      delta = base === tree ? [] : await this.diffTrees(base, tree, this.nested);
      const oids = [...new Set(delta.flatMap((d) => (d.after ? [d.after.oid] : [])))];
      for (const oid of oids) if (await fileExists(looseObjectPath(this.objectsDir, oid))) loose.push(oid);
    }
    // git writes a blob again whenever it re-reads the file (touched, or racily clean): content
    // dropped before must not creep back in.
    await this.droppedReason('');
    for (const oid of this.droppedLog!.keys()) {
      if (!loose.includes(oid) && (await fileExists(looseObjectPath(this.objectsDir, oid)))) loose.push(oid);
    }
    const dropped = await this.dropUnkept(loose, packed, known);
    if (bulk) await this.packBulk(loose, packed, dropped);
    this.lastTree = tree;
    for (const rel of this.nested) if (!(await fileExists(join(this.opts.workTree, ...rel.split('/'), '.git')))) this.nested.delete(rel);
    const nested = [...this.nested];
    return delta === undefined ? { tree, dropped, nested } : { tree, dropped, nested, base: base!, delta };
  }

  /** The repositories inside that git recorded as such (a commit, mode 160000), from the whole index. */
  private async listNested(): Promise<void> {
    const out = (await runGit(this.env, ['ls-files', '-s', '-z'])).toString('utf8');
    for (const entry of out.split('\0')) if (entry.startsWith('160000 ')) this.nested.add(entry.slice(entry.indexOf('\t') + 1));
  }

  /**
   * `git add -A -v`: the paths it names are those whose entries changed. A bulk add streams
   * every blob into one pack; its few loose objects are packed and synced afterwards, and git
   * 2.39 cannot finish that pack when it also syncs loose objects in a batch.
   */
  private async add(bulk: boolean): Promise<Buffer> {
    // Repositories inside are left out: `add` would run `git status` in each one, under its own
    // config (they are recorded in stores of their own). Hence pathspec magic, for this call only.
    // One that is no repository any more (its .git gone) is a folder of files again: added.
    const nested: string[] = [];
    for (const rel of this.nested) if (await fileExists(join(this.opts.workTree, ...rel.split('/'), '.git'))) nested.push(rel);
    const args = ['add', '-A', '-v', '--ignore-errors', '--', '.', ...excludeGitlinks(nested)];
    const extraEnv: Record<string, string> = nested.length > 0 ? { GIT_LITERAL_PATHSPECS: '0' } : {};
    if (bulk) return runGit(this.env, ['-c', 'core.bigFileThreshold=1', '-c', `core.fsync=${durableBulk}`, ...args], { extraEnv: { ...bulkMalloc(), ...extraEnv } });
    try {
      return await runGit(this.env, args, { extraEnv });
    } catch (err) {
      // The same git limit with a file over core.bigFileThreshold (2 GB) next to smaller ones.
      if (!(err instanceof GitError) || err.exitCode !== 128) throw err;
      return runGit(this.env, ['-c', `core.fsync=${durableBulk}`, ...args], { extraEnv });
    }
  }

  /** The content of a blob (from Keel's objects or the person's); undefined when it was not kept. */
  async readBlob(oid: string): Promise<Buffer | undefined> {
    await this.init();
    try {
      return await runGit(this.env, ['cat-file', 'blob', oid]);
    } catch (err) {
      if (err instanceof GitError && err.exitCode !== null) return undefined;
      throw err;
    }
  }

  /** Several blobs at once (one git process); missing ones are absent from the map. */
  async readBlobs(oids: readonly string[]): Promise<Map<string, Buffer>> {
    if (oids.length === 0) return new Map();
    await this.init();
    return catBlobs(this.env, oids);
  }

  /** Files that differ between two trees (repositories inside left out, and noted in `nested` when given). */
  async diffTrees(a: string, b: string, nested?: Set<string>): Promise<TreeDelta[]> {
    await this.init();
    const out = (await runGit(this.env, ['diff-tree', '-r', '-z', '--no-renames', '--raw', a, b])).toString('utf8');
    const parts = out.split('\0');
    const deltas: TreeDelta[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const [oldMode, newMode, oldOid, newOid] = parts[i]!.slice(1).split(' ');
      const path = parts[i + 1]!;
      if (newMode === '160000') nested?.add(path);
      if (!isFileMode(oldMode) && !isFileMode(newMode)) continue;
      deltas.push({
        path,
        before: isFileMode(oldMode) ? { oid: oldOid!, mode: oldMode } : null,
        after: isFileMode(newMode) ? { oid: newOid!, mode: newMode } : null,
      });
    }
    return deltas;
  }

  async hasBlob(oid: string): Promise<boolean> {
    await this.init();
    try {
      await runGit(this.env, ['cat-file', '-e', oid]);
      return true;
    } catch (err) {
      if (err instanceof GitError && err.exitCode !== null) return false;
      throw err;
    }
  }

  /** Bytes of objects Keel keeps for this folder (the person's borrowed objects are not counted). */
  async usedBytes(): Promise<number> {
    this.used ??= await this.countObjects();
    return this.used;
  }

  private async countObjects(): Promise<number> {
    await this.init();
    const out = (await runGit(this.env, ['count-objects', '-v'])).toString('utf8');
    const kib = (key: string) => Number(/^(\S+): (\d+)$/m.exec(out.split('\n').find((l) => l.startsWith(`${key}:`)) ?? '')?.[2] ?? 0);
    return (kib('size') + kib('size-pack')) * 1024;
  }

  /** Deletes every object Keel keeps that neither these trees nor the index need. */
  async prune(keepTrees: readonly string[]): Promise<void> {
    await this.init();
    const done = await markBusy(this.opts.dir);
    try {
      if ((await listPacks(this.objectsDir)).size > 0) await repackReachable(this.env, this.objectsDir, keepTrees);
      await runGit(this.env, ['prune', '--expire=now', ...keepTrees]);
    } finally {
      await done();
    }
    this.used = undefined;
  }

  private init(): Promise<void> {
    this.ready ??= this.create().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async create(): Promise<void> {
    const { gitDir } = this.env;
    const fresh = !(await fileExists(join(gitDir, 'HEAD')));
    if (fresh) {
      await initStore(this.env, this.opts.dir, this.opts.workTree, this.objectsDir);
      return;
    }
    this.report(await recoverLeftovers(this.env, this.opts.dir, (oid) => this.droppedReason(oid)));
  }

  private report(recovery: Recovery): void {
    if (recovery.state === 'in-use') this.opts.log?.('warn', `snapshots: ${this.opts.dir} is being written by ${recovery.by}; this window's snapshots of it may fail until that ends`);
    if (recovery.state === 'recovered') {
      this.opts.log?.('info', `snapshots: cleared what a stopped Keel left in ${this.opts.dir} (${recovery.removed.length} file(s)${recovery.reread > 0 ? `, ${recovery.reread} file(s) to read again` : recovery.reread < 0 ? ', index read again from scratch' : ''})`);
    }
  }

  /** What the person excludes in their repository (.git/info/exclude) counts too; refreshed each time. */
  private async refreshExcludes(): Promise<void> {
    if (this.personExclude === undefined) {
      const out = (await readPersonGit(this.opts.workTree, ['rev-parse', '--git-path', 'info/exclude']))?.trim();
      this.personExclude = out ? resolve(this.opts.workTree, out) : null;
    }
    const person = this.personExclude;
    let theirs = '';
    if (person) {
      try {
        theirs = await readFile(person, 'utf8');
      } catch (err) {
        if (!(err instanceof Error && 'code' in err && err.code === 'ENOENT')) throw err;
      }
    }
    const inRepo = person !== null;
    const text = `${inRepo ? '' : `${defaultExcludes.join('\n')}\n`}${theirs}\n`;
    const path = join(this.env.gitDir, 'info', 'exclude');
    const current = await readFile(path, 'utf8').catch(() => undefined);
    if (current !== text) await writeFile(path, text);
  }

  /** The objects of packs that are not in `before`, with what is known of them from reading the pack. */
  private async scanNewPacks(before: ReadonlySet<string>, packed: Map<string, string[]>, known: Map<string, BlobHead>): Promise<void> {
    for (const pack of await listPacks(this.objectsDir)) {
      if (before.has(pack)) continue;
      const heads = await scanPack(pack);
      for (const [oid, head] of heads ?? []) known.set(oid, head);
      packed.set(pack, heads ? [...heads.keys()] : await packObjectIds(this.env, pack));
    }
  }

  /**
   * After a first snapshot: the new loose objects (its trees, empty files, symlinks) and any
   * new pack that held dropped content become one synced pack without it.
   */
  private async packBulk(loose: readonly string[], packed: ReadonlyMap<string, readonly string[]>, dropped: ReadonlyMap<string, unknown>): Promise<void> {
    const rewrite = [...packed].filter(([, ids]) => ids.some((id) => dropped.has(id)));
    const keep = [...loose, ...rewrite.flatMap(([, ids]) => ids)].filter((id) => !dropped.has(id));
    if (keep.length === 0 && rewrite.length === 0) return;
    await rewritePacks(this.env, this.objectsDir, rewrite.map(([pack]) => pack), keep);
    // Now in the synced pack: the loose copies go (several at once, this file system permitting).
    const packedLoose = loose.filter((id) => !dropped.has(id));
    for (let i = 0; i < packedLoose.length; i += 32) {
      await Promise.all(packedLoose.slice(i, i + 32).map((id) => rm(looseObjectPath(this.objectsDir, id), { force: true })));
    }
  }

  /** Large and binary files just added are kept by id only: their loose objects go (packed ones in `packBulk`). */
  private async dropUnkept(loose: readonly string[], packed: ReadonlyMap<string, readonly string[]>, known: ReadonlyMap<string, BlobHead>): Promise<Map<string, 'large' | 'binary'>> {
    const dropped = new Map<string, 'large' | 'binary'>();
    const unknown = [...packed.values()].flat().filter((oid) => !known.has(oid));
    const verdicts = new Map(known);
    const byFile = loose.length <= 64 ? await blobHeadsByFile(this.objectsDir, loose) : undefined;
    const byGit = await blobHeadsByGit(this.env, byFile ? unknown : [...loose, ...unknown], this.opts.maxFileBytes);
    for (const [oid, head] of [...(byFile ?? []), ...byGit]) verdicts.set(oid, head);
    let grew = 0;
    for (const [oid, head] of verdicts) {
      const why = head.type !== 'blob' ? undefined : head.size > this.opts.maxFileBytes ? 'large' : head.binary ? 'binary' : undefined;
      if (!why) {
        grew += head.size;
        continue;
      }
      dropped.set(oid, why);
    }
    for (const oid of loose) if (dropped.has(oid)) await unlink(looseObjectPath(this.objectsDir, oid));
    if (this.used !== undefined) this.used += grew;
    if (dropped.size > 0) {
      await appendFile(join(this.opts.dir, 'dropped'), [...dropped].map(([oid, why]) => `${oid} ${why}\n`).join(''));
      for (const [oid, why] of dropped) this.droppedLog?.set(oid, why);
    }
    return dropped;
  }
}
