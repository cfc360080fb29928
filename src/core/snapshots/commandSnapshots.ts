import { createHash, randomUUID } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { join, sep } from 'node:path';
import { diffLines, hunkTotals } from '../diff/lineDiff';
import { errorMessage } from '../errors';
import { formatMegabytes } from '../journal/blobStore';
import type { Session } from '../session/session';
import type { CommandChange, SnapshotRecord } from '../session/sessionRecords';
import type { WorkspaceFolder } from '../workspace/workspace';
import { SnapshotRepo, type Snapshot } from './snapshotRepo';

/** Git repositories inside the workspace folders that get stores of their own, at most. */
const maxNestedRepos = 16;

/** One folder's snapshot (or why it could not be taken). */
interface Taken {
  folder: WorkspaceFolder & { nested?: true };
  snap: Snapshot | Error;
}

/** Past this many changed files the card's +/− counts are not worth reading every file for. */
const maxCountedFiles = 200;
const maxCountedBytes = 1024 * 1024;

export interface CommandSnapshotsOptions {
  session: Pick<Session, 'path' | 'appendSnapshot' | 'fileHistory'>;
  folders: readonly WorkspaceFolder[];
  display(absPath: string): string;
  /** Larger files are recorded by hash only. */
  maxFileBytes: number;
  /** Most bytes Keel keeps for this conversation's snapshots; the oldest go first past it. */
  capBytes: number;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
  /** The person's own commands in Keel's terminals running at some moment since `since` (Date.now()). */
  personCommands?(since: number): string[];
}

/** What a command changed, once its after-snapshot is taken. */
export interface CommandOutcome {
  toolCallId: string;
  changes: CommandChange[];
  records: SnapshotRecord[];
  /** Something the person should hear (snapshots could not be taken, or old ones were dropped). */
  warning?: string;
}

/** Taken before a command; `end()` takes the after-snapshot and records what changed. */
export interface SnapshotBracket {
  end(): Promise<CommandOutcome>;
}

/** Where a session's snapshot stores live: next to its log, so deleting the conversation deletes them. */
export function snapshotDir(sessionLogPath: string): string {
  return `${sessionLogPath.endsWith('.jsonl') ? sessionLogPath.slice(0, -'.jsonl'.length) : sessionLogPath}.snapshots`;
}

/**
 * Snapshots of the workspace folders around each of Keel's commands (only those: the
 * person's own commands between them show up as differences Keel did not make, which a
 * restore then treats as a conflict). All git work of one conversation is queued, so a
 * background job ending during a command never races it for the private index.
 */
export class CommandSnapshots {
  private readonly repos = new Map<string, SnapshotRepo>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly pending = new Set<Promise<unknown>>();
  private prefetched = false;

  constructor(private readonly opts: CommandSnapshotsOptions) {}

  /** The private store of one folder (by path), for restores. */
  repoFor(store: string, folder: string): SnapshotRepo {
    let repo = this.repos.get(store);
    if (!repo) {
      repo = new SnapshotRepo({ dir: join(snapshotDir(this.opts.session.path), store), workTree: folder, maxFileBytes: this.opts.maxFileBytes });
      this.repos.set(store, repo);
    }
    return repo;
  }

  /**
   * Snapshots every workspace folder before a command. Never throws: when snapshots cannot be
   * taken the command still runs, and `end()` says its changes were not recorded.
   */
  async begin(toolCallId: string): Promise<SnapshotBracket> {
    this.prefetched = true;
    const since = Date.now();
    const before = await this.serial(() => this.snapshotAll());
    const bracket: SnapshotBracket = {
      end: () => {
        const done = this.serial(() => this.finish(toolCallId, before, since));
        this.pending.add(done);
        void done.finally(() => this.pending.delete(done));
        return done;
      },
    };
    return bracket;
  }

  /**
   * A conversation's first snapshot in this process (a folder's first ever writes every file
   * into the store) is taken while the model is still writing its first command, off the
   * command's path. The command's own before-snapshot still follows, when it starts: it is
   * what the command is compared with, so this only warms the store.
   */
  prefetch(): void {
    if (this.prefetched) return;
    this.prefetched = true;
    const warm = this.serial(() => this.snapshotAll());
    this.pending.add(warm);
    void warm.finally(() => this.pending.delete(warm));
  }

  /** Waits for after-snapshots still being taken (background jobs that just ended). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Every workspace folder, then each git repository found inside one (with a store of its own), by store. */
  private async snapshotAll(): Promise<Map<string, Taken>> {
    const out = new Map<string, Taken>();
    const queue: Array<WorkspaceFolder & { nested?: true }> = [...this.opts.folders];
    let nested = 0;
    for (let folder = queue.shift(); folder; folder = queue.shift()) {
      const store = storeName(folder.path);
      if (out.has(store)) continue;
      try {
        const snap = await this.repoFor(store, folder.path).snapshot();
        out.set(store, { folder, snap });
        for (const rel of snap.nested) {
          if (++nested > maxNestedRepos) {
            if (nested === maxNestedRepos + 1) this.opts.log('warn', `snapshots: more than ${maxNestedRepos} git repositories inside the workspace; what commands change in the others is not recorded`);
            continue;
          }
          const path = join(folder.path, ...rel.split('/'));
          queue.push({ name: this.opts.display(path), path, nested: true });
        }
      } catch (err) {
        this.opts.log('warn', `snapshots: could not record ${folder.name}: ${errorMessage(err)}`);
        out.set(store, { folder, snap: err instanceof Error ? err : new Error(errorMessage(err)) });
      }
    }
    return out;
  }

  private async finish(toolCallId: string, before: Map<string, Taken>, since: number): Promise<CommandOutcome> {
    const after = await this.snapshotAll();
    // Snapshots cannot tell whose a change is: the person's commands running meanwhile are named.
    const theirs = this.opts.personCommands?.(since) ?? [];
    const records: SnapshotRecord[] = [];
    const failures: string[] = [];
    for (const [store, { folder, snap: b }] of after) {
      const a = before.get(store)?.snap;
      // A repository the command made inside the workspace has nothing to compare with.
      if (!a && folder.nested) continue;
      if (!a || a instanceof Error || b instanceof Error) {
        failures.push(`${folder.name} (${errorMessage(a instanceof Error ? a : b)})`);
        continue;
      }
      if (a.tree === b.tree) continue;
      try {
        const changes = await this.changesBetween(this.repoFor(store, folder.path), folder, a, b);
        if (changes.length === 0) continue;
        records.push(this.opts.session.appendSnapshot({ toolCallId, folder: folder.path, store, before: a.tree, after: b.tree, changes }));
      } catch (err) {
        failures.push(`${folder.name} (${errorMessage(err)})`);
      }
    }
    const warnings: string[] = [];
    if (theirs.length && records.length) {
      warnings.push(
        `While this command ran you also ran ${theirs.map((c) => `\`${c.length > 80 ? `${c.slice(0, 77)}...` : c}\``).join(', ')} in Keel's terminal: ` +
          'what that changed is listed with this command, and undoing the command undoes it too.',
      );
    }
    if (failures.length) warnings.push(`Keel could not record what this command changed in ${failures.join(', ')}; those changes cannot be undone from the chat.`);
    const dropped = await this.enforceCap().catch((err: unknown) => `Keel could not trim its snapshots: ${errorMessage(err)}`);
    if (dropped) warnings.push(dropped);
    const changes = records.flatMap((r) => r.changes);
    const outcome: CommandOutcome = { toolCallId, changes, records };
    if (warnings.length) outcome.warning = warnings.join(' ');
    return outcome;
  }

  private async changesBetween(repo: SnapshotRepo, folder: WorkspaceFolder, a: Snapshot, b: Snapshot): Promise<CommandChange[]> {
    // The after-snapshot usually diffed itself against this very tree already.
    const deltas = b.base === a.tree && b.delta ? b.delta : await repo.diffTrees(a.tree, b.tree);
    const unkept = new Map([...a.dropped, ...b.dropped]);
    const countable = deltas.length <= maxCountedFiles;
    const blobs = countable ? await repo.readBlobs([...new Set(deltas.flatMap((d) => [d.before?.oid, d.after?.oid]).filter((o): o is string => !!o))]) : new Map<string, Buffer>();
    const changes: CommandChange[] = [];
    for (const d of deltas) {
      const path = join(folder.path, ...d.path.split('/'));
      const change: CommandChange = {
        id: randomUUID(),
        path,
        displayPath: this.opts.display(path),
        kind: d.before === null ? 'added' : d.after === null ? 'deleted' : 'modified',
        before: d.before,
        after: d.after,
      };
      if (d.before && !blobs.has(d.before.oid) && !(await repo.hasBlob(d.before.oid))) {
        change.unkept = unkept.get(d.before.oid) ?? (await repo.droppedReason(d.before.oid)) ?? 'large';
      }
      const counts = countable ? lineCounts(d.before && blobs.get(d.before.oid), d.after && blobs.get(d.after.oid), d.before !== null, d.after !== null) : undefined;
      if (counts) Object.assign(change, counts);
      changes.push(change);
    }
    return changes;
  }

  /** Past the cap, the oldest snapshots' content goes until the store fits; returns what to tell the person. */
  private async enforceCap(): Promise<string | undefined> {
    const used = async () => {
      let total = 0;
      for (const repo of this.repos.values()) total += await repo.usedBytes();
      return total;
    };
    let total = await used();
    if (total <= this.opts.capBytes) return undefined;
    const snapshots = this.opts.session.fileHistory().filter((r): r is SnapshotRecord => r.type === 'snapshot');
    let dropped = 0;
    while (total > this.opts.capBytes && dropped < snapshots.length) {
      dropped++;
      const keep = snapshots.slice(dropped);
      for (const [store, repo] of this.repos) {
        await repo.prune(keep.filter((r) => r.store === store).flatMap((r) => [r.before, r.after]));
      }
      total = await used();
    }
    const message =
      `Keel's snapshots for this conversation passed their ${formatMegabytes(this.opts.capBytes)} limit: the earliest ${dropped} command snapshot(s) ` +
      'were dropped, so what those commands changed can no longer be put back from the chat.';
    this.opts.log('warn', `snapshots: ${message}`);
    return message;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** One private store per workspace folder, named after its path. */
export function storeName(folderPath: string): string {
  const base = folderPath.split(sep).filter(Boolean).at(-1) ?? 'root';
  return `${base.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40)}-${createHash('sha256').update(folderPath).digest('hex').slice(0, 12)}`;
}

function lineCounts(before: Buffer | undefined | null, after: Buffer | undefined | null, hadBefore: boolean, hasAfter: boolean): { added: number; removed: number } | undefined {
  if ((hadBefore && !before) || (hasAfter && !after)) return undefined;
  const texts: string[] = [];
  for (const bytes of [before, after]) {
    if (!bytes) {
      texts.push('');
      continue;
    }
    if (bytes.length > maxCountedBytes || bytes.includes(0) || !isUtf8(bytes)) return undefined;
    texts.push(bytes.toString('utf8'));
  }
  return hunkTotals(diffLines(texts[0]!, texts[1]!).hunks);
}
