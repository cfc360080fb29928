import type { Context } from '../context';
import { errorMessage } from '../errors';
import type { ChangeJournal } from '../journal/changeJournal';
import type { ProjectEvent } from '../projectTypes';
import type { Session } from '../session/session';
import type { ToolContext } from '../tools/tool';
import { CommandSnapshots } from './commandSnapshots';
import { FileRestore } from './fileRestore';

/** A conversation's snapshots around commands and the restore that walks them with the journal. */
export interface FileUndo {
  snapshots: CommandSnapshots;
  restore: FileRestore;
}

export function createFileUndo(ctx: Context, session: Session, journal: ChangeJournal): FileUndo {
  const mb = 1024 * 1024;
  const snapshots = new CommandSnapshots({
    session,
    folders: ctx.workspace.folders,
    display: (p) => ctx.workspace.display(p),
    maxFileBytes: ctx.config.snapshots.maxFileMB * mb,
    capBytes: ctx.config.snapshots.capMB * mb,
    log: (level, message) => ctx.host.log(level, message),
    personCommands: ctx.host.personCommandsSince ? (since) => ctx.host.personCommandsSince!(since) : undefined,
  });
  const restore = new FileRestore({ session, host: ctx.host, snapshots, onReverted: (files) => journal.noteReverted(files) });
  return { snapshots, restore };
}

/**
 * The `snapshots` of one tool call's context: the after-snapshot reports the command's
 * changes as an event while the run is live (a background job's, which may end later, is
 * only recorded in the log).
 */
export function snapshotsFor(
  undo: FileUndo | undefined,
  toolCallId: string,
  emit: (e: ProjectEvent) => void,
  log: (level: 'warn', message: string) => void,
): ToolContext['snapshots'] {
  if (!undo) return undefined;
  return {
    async begin() {
      const bracket = await undo.snapshots.begin(toolCallId);
      return {
        async end() {
          try {
            const outcome = await bracket.end();
            if (outcome.changes.length > 0 || outcome.warning) {
              emit(outcome.warning ? { type: 'command_changes', toolCallId, changes: outcome.changes, warning: outcome.warning } : { type: 'command_changes', toolCallId, changes: outcome.changes });
            }
            return outcome;
          } catch (err) {
            log('warn', `snapshots: could not record what the command changed: ${errorMessage(err)}`);
            return undefined;
          }
        },
      };
    },
  };
}
