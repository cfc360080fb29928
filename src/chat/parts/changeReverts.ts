import { isUtf8 } from 'node:buffer';
import * as l10n from '@vscode/l10n';
import type { Project } from '../../core/project';
import type { SnapshotRecord } from '../../core/session';
import type { FileRestore, RestoreOutcome } from '../../core/snapshots';
import type { RequestParams, RequestResult } from '../../protocol/catalogue';
import type { LogFn } from '../../protocol/log';
import type { ConversationState } from '../conversations/conversationState';

export interface ChangeRevertsDeps {
  project(): Project | undefined;
  isRunning(): boolean;
  state: ConversationState;
  log: LogFn;
}

/** Two texts to show side by side: what a command found and what it left. */
export interface TextDiff {
  title: string;
  displayPath: string;
  before: string;
  after: string;
}

type Refused = { status: 'failed'; message: string };

/**
 * Putting files back, whichever tool changed them (the journal's write and edit, commands'
 * snapshots): one change, one command, or everything since a message.
 */
export class ChangeReverts {
  constructor(private readonly deps: ChangeRevertsDeps) {}

  async undo(params: RequestParams<'change.undo'>): Promise<RequestResult<'change.undo'>> {
    const restore = this.restorer();
    if ('status' in restore) return restore;
    return this.reverted(await restore.undoChange(params.changeId, { force: params.force === true }));
  }

  async undoCommand(params: RequestParams<'command.undo'>): Promise<RequestResult<'command.undo'>> {
    const restore = this.restorer();
    if ('status' in restore) return restore;
    return this.reverted(await restore.undoCall(params.toolCallId, { force: params.force === true }));
  }

  async restore(params: RequestParams<'changes.restore'>): Promise<RequestResult<'changes.restore'>> {
    const restore = this.restorer();
    if ('status' in restore) return restore;
    const calls = this.deps.state.toolCallIdsFrom(params.messageId);
    if (!calls) return { status: 'nothing', message: l10n.t('That message is not in this conversation.') };
    return this.reverted(await restore.restoreFrom(calls, { force: params.force === true }));
  }

  /** A command's change to one file as text before and after; undefined when either side is not text Keel kept. */
  async commandDiff(changeId: string): Promise<TextDiff | undefined> {
    const project = this.deps.project();
    const undo = project?.fileUndo;
    if (!project || !undo) return undefined;
    for (const record of project.session.fileHistory()) {
      if (record.type !== 'snapshot') continue;
      const change = (record as SnapshotRecord).changes.find((c) => c.id === changeId);
      if (!change) continue;
      const repo = undo.snapshots.repoFor(record.store, record.folder);
      const text = async (side: typeof change.before): Promise<string | undefined> => {
        if (side === null) return '';
        const bytes = await repo.readBlob(side.oid);
        return bytes && isUtf8(bytes) && !bytes.includes(0) ? bytes.toString('utf8') : undefined;
      };
      const [before, after] = [await text(change.before), await text(change.after)];
      if (before === undefined || after === undefined) return undefined;
      return { title: l10n.t('{0} (what the command changed)', change.displayPath), displayPath: change.displayPath, before, after };
    }
    return undefined;
  }

  private restorer(): FileRestore | Refused {
    const restore = this.deps.project()?.fileUndo?.restore;
    if (!restore) return { status: 'failed', message: l10n.t('This conversation has no record of file changes it can put back (it is open read-only or not started).') };
    if (this.deps.isRunning()) return { status: 'failed', message: l10n.t('Keel is working in this conversation: stop it or let it finish, then put files back.') };
    return restore;
  }

  private reverted(outcome: RestoreOutcome): RequestResult<'change.undo'> {
    if (outcome.status === 'reverted') this.deps.state.markReverted(new Set(outcome.revertedIds));
    this.deps.log(outcome.status === 'reverted' || outcome.status === 'nothing' ? 'info' : 'warn', `file changes: ${outcome.message}`);
    return { status: outcome.status, message: outcome.message };
  }
}
