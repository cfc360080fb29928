import { isUtf8 } from 'node:buffer';
import { lstat, readFile, readlink } from 'node:fs/promises';
import { errorMessage } from '../errors';
import type { Host } from '../host';
import { BlobStore } from '../journal/blobStore';
import { journalBlobDir } from '../journal/changeJournal';
import type { Session } from '../session/session';
import { writeFileNoFollow, writeLinkNoFollow } from '../workspace/noFollowFiles';
import type { CommandSnapshots } from './commandSnapshots';
import { gitBlobId, type GitFileState } from './gitBlobId';
import { fileSteps, type FileSide, type FileStep } from './fileHistory';
import { errorCode } from '../errorCode';
import { sha256 } from '../sha256';

export type RestoreOutcome =
  /** Files were put back; `message` says which, and which could not be. */
  | { status: 'reverted'; revertedIds: string[]; files: string[]; message: string }
  /** Nothing was written: files changed since (or between) Keel's changes; `force` restores anyway. */
  | { status: 'conflict'; conflicts: string[]; message: string }
  | { status: 'nothing'; message: string }
  | { status: 'failed'; message: string };

export interface FileRestoreOptions {
  session: Pick<Session, 'path' | 'fileHistory' | 'isReverted' | 'appendRevert'>;
  /** Writes journal (text) restores, through the editor in VS Code so its Undo works too. */
  host: Pick<Host, 'writeFile' | 'log'>;
  snapshots: Pick<CommandSnapshots, 'repoFor'>;
  /** Told which files went back (the model hears it before its next turn). */
  onReverted?(displayPaths: string[]): void;
}

interface Disk {
  sha256: string;
  git: GitFileState;
}

interface Group {
  path: string;
  displayPath: string;
  steps: FileStep[];
}

/**
 * Puts files back as they were before Keel changed them, whichever tool did (write and edit
 * through the journal, commands through snapshots), walking one history in order. Nothing is
 * written when a file changed since Keel's last change to it, or between two of Keel's changes
 * (the person's own commands, another program), unless the person says so.
 */
export class FileRestore {
  private readonly journalBlobs: BlobStore;

  constructor(private readonly opts: FileRestoreOptions) {
    this.journalBlobs = new BlobStore(journalBlobDir(opts.session.path), Number.MAX_SAFE_INTEGER);
  }

  /** Every change still in effect, oldest first. */
  steps(): FileStep[] {
    return fileSteps(this.opts.session.fileHistory()).filter((s) => !this.opts.session.isReverted(s.id));
  }

  /** One change (a journal change or one file of a command). */
  undoChange(changeId: string, opts: { force?: boolean } = {}): Promise<RestoreOutcome> {
    return this.revert(this.steps().filter((s) => s.id === changeId), opts.force === true, 'That change was already undone, or Keel has no record of it.');
  }

  /** Every file one tool call changed (the Undo of a bash card). */
  undoCall(toolCallId: string, opts: { force?: boolean } = {}): Promise<RestoreOutcome> {
    return this.revert(this.steps().filter((s) => s.toolCallId === toolCallId), opts.force === true, 'This call changed no files that are not already put back.');
  }

  /** Every file changed from the first change of these calls on ("Restore files to here"). */
  restoreFrom(toolCallIds: Iterable<string>, opts: { force?: boolean } = {}): Promise<RestoreOutcome> {
    const ids = new Set(toolCallIds);
    const all = this.steps();
    const start = all.findIndex((s) => ids.has(s.toolCallId));
    return this.revert(start < 0 ? [] : all.slice(start), opts.force === true, 'Keel has changed no files since this message (or they were already put back).');
  }

  private async revert(targets: FileStep[], force: boolean, nothing: string): Promise<RestoreOutcome> {
    if (targets.length === 0) return { status: 'nothing', message: nothing };
    const groups = new Map<string, Group>();
    for (const step of targets) {
      const group = groups.get(step.path) ?? { path: step.path, displayPath: step.displayPath, steps: [] };
      group.steps.push(step);
      groups.set(step.path, group);
    }
    const problems: string[] = [];
    const conflicts: string[] = [];
    const plans: Group[] = [];
    for (const group of groups.values()) {
      const unrestorable = await this.whyUnrestorable(group.steps[0]!);
      if (unrestorable) {
        problems.push(`${group.displayPath}: ${unrestorable}`);
        continue;
      }
      const conflict = await this.conflictOf(group);
      if (conflict) conflicts.push(conflict);
      plans.push(group);
    }
    if (conflicts.length > 0 && !force) {
      const list = conflicts.map((c) => `- ${c}`).join('\n');
      return {
        status: 'conflict',
        conflicts,
        message: `Nothing was put back: ${conflicts.length === 1 ? 'a file was' : 'files were'} changed outside Keel's changes, and putting ${conflicts.length === 1 ? 'it' : 'them'} back would lose that:\n${list}`,
      };
    }
    const done: Group[] = [];
    for (const group of plans) {
      try {
        await this.writeBefore(group.steps[0]!);
        done.push(group);
      } catch (err) {
        problems.push(`${group.displayPath}: ${errorMessage(err)}`);
      }
    }
    const revertedIds = done.flatMap((g) => g.steps.map((s) => s.id));
    if (revertedIds.length > 0) this.opts.session.appendRevert(revertedIds, force && conflicts.length > 0);
    const files = done.map((g) => g.displayPath);
    if (files.length) this.opts.onReverted?.(files);
    const problemText = problems.length ? `\nNot put back:\n${problems.map((p) => `- ${p}`).join('\n')}` : '';
    if (done.length === 0) return { status: 'failed', message: `Nothing was put back.${problemText}` };
    return {
      status: 'reverted',
      revertedIds,
      files,
      message: `Put back ${files.join(', ')} as ${files.length === 1 ? 'it was' : 'they were'} before Keel's change${revertedIds.length === 1 ? '' : 's'}.${problemText}`,
    };
  }

  private async whyUnrestorable(first: FileStep): Promise<string | undefined> {
    if (first.before === null) return undefined;
    if (first.source.kind === 'journal') {
      return first.source.record.beforeStored ? undefined : 'its earlier content was not kept (the change journal was full)';
    }
    const { change, record } = first.source;
    if (change.unkept === 'binary') return 'it is a binary file, recorded by hash only: its earlier content was not kept';
    if (change.unkept === 'large') return 'it is larger than the snapshot size limit, recorded by hash only: its earlier content was not kept';
    const repo = this.opts.snapshots.repoFor(record.store, record.folder);
    if (!(await repo.hasBlob((first.before as GitFileState).oid))) return "its earlier content is no longer in Keel's snapshot store (dropped with the oldest snapshots when the store was full, or lost when Keel was stopped while writing it)";
    return undefined;
  }

  private async conflictOf(group: Group): Promise<string | undefined> {
    const { steps, displayPath } = group;
    // Whose change it was cannot be known: putting it back might undo the person's own work.
    const shared = steps.find((s) => s.source.kind === 'command' && s.source.record.personCommands?.length);
    if (shared?.source.kind === 'command') {
      const theirs = shared.source.record.personCommands!.map((c) => `\`${c.length > 60 ? `${c.slice(0, 57)}...` : c}\``).join(', ');
      return `${displayPath}: it changed while you also ran ${theirs} in Keel's terminal, and Keel cannot tell whether that or its own command changed it`;
    }
    for (let i = 0; i + 1 < steps.length; i++) {
      if (!(await this.sameSide(steps[i]!.after, steps[i + 1]!.before, steps[i]!, steps[i + 1]!))) {
        return `${displayPath}: it was changed between Keel's changes (by you or another program)`;
      }
    }
    const disk = await readDisk(group.path);
    const last = steps.at(-1)!;
    if (matches(last.after, disk)) return undefined;
    const all = this.steps();
    const later = all.slice(all.findIndex((s) => s.id === last.id) + 1).some((s) => s.path === group.path);
    if (later) return `${displayPath}: Keel changed it again later; undo that change first, or restore to an earlier message`;
    return disk === null ? `${displayPath}: it was deleted since` : `${displayPath}: it was changed since (by you or another program)`;
  }

  /** Whether one change ended where the next began; across kinds, the git side's content is hashed. */
  private async sameSide(a: FileSide, b: FileSide, aStep: FileStep, bStep: FileStep): Promise<boolean> {
    if (a === null || b === null) return a === b;
    if ('sha256' in a && 'sha256' in b) return a.sha256 === b.sha256;
    if ('oid' in a && 'oid' in b) return a.oid === b.oid && a.mode === b.mode;
    const [git, step, sha] = 'oid' in a ? [a, aStep, (b as { sha256: string }).sha256] : [b as GitFileState, bStep, a.sha256];
    if (step.source.kind !== 'command') return false;
    const bytes = await this.opts.snapshots.repoFor(step.source.record.store, step.source.record.folder).readBlob(git.oid);
    return bytes !== undefined && sha256(bytes) === sha;
  }

  private async writeBefore(first: FileStep): Promise<void> {
    if (first.source.kind === 'journal') {
      const hash = first.source.record.beforeHash;
      if (hash === null) {
        await this.opts.host.writeFile(first.path, null);
        return;
      }
      const bytes = await this.journalBlobs.get(hash);
      if (!isUtf8(bytes)) throw new Error('its earlier content is not UTF-8 text, which the editor cannot write back exactly');
      await this.opts.host.writeFile(first.path, bytes.toString('utf8'));
      return;
    }
    const before = first.before as GitFileState | null;
    if (before === null) {
      await writeFileNoFollow(first.path, null);
      return;
    }
    const { record } = first.source;
    const bytes = await this.opts.snapshots.repoFor(record.store, record.folder).readBlob(before.oid);
    if (!bytes) throw new Error('its earlier content is no longer kept');
    await writeExact(first.path, bytes, before.mode);
  }
}

/**
 * Writes bytes exactly as recorded, with git's mode (executable bit, or a symbolic link),
 * never through a link a command put on the way (noFollowFiles).
 */
async function writeExact(path: string, bytes: Buffer, mode: GitFileState['mode']): Promise<void> {
  if (mode === '120000') {
    await writeLinkNoFollow(path, bytes.toString('utf8'));
    return;
  }
  const exec = mode === '100755';
  await writeFileNoFollow(path, bytes, {
    mode: (current) => {
      const perms = current !== undefined ? current & 0o777 : 0o644;
      return exec ? perms | ((perms & 0o444) >> 2) : perms & ~0o111;
    },
  });
}

async function readDisk(path: string): Promise<Disk | null> {
  let info;
  try {
    info = await lstat(path);
  } catch (err) {
    if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return null;
    throw err;
  }
  if (info.isSymbolicLink()) {
    const target = await readlink(path, { encoding: 'buffer' });
    return { sha256: sha256(target), git: { oid: gitBlobId(target), mode: '120000' } };
  }
  if (!info.isFile()) return null;
  const bytes = await readFile(path);
  return { sha256: sha256(bytes), git: { oid: gitBlobId(bytes), mode: (info.mode & 0o111) !== 0 ? '100755' : '100644' } };
}

function matches(side: FileSide, disk: Disk | null): boolean {
  if (side === null || disk === null) return side === disk;
  if ('sha256' in side) return side.sha256 === disk.sha256;
  return side.oid === disk.git.oid && side.mode === disk.git.mode;
}
