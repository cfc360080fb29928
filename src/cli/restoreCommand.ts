import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import { Context } from '../core/context';
import { KeelError } from '../core/errors';
import { createFsHost } from '../core/fsHost';
import { Project } from '../core/project';
import type { Session } from '../core/session';
import type { RestoreArgs } from './cliArgs';
import type { CliIo } from './cliIo';

/**
 * `keel restore`: puts back every workspace file Keel changed (by any tool, commands
 * included) from user turn N on. Nothing is written when a file changed since unless --force.
 */
export async function restoreCommand(a: RestoreArgs, io: CliIo): Promise<number> {
  const host = createFsHost({ log: (level, message) => level !== 'debug' && level !== 'info' && io.stderr(`keel [${level}] ${message}\n`) });
  const ctx = await Context.create({ folders: [{ path: resolve(a.cwd) }], host, env: io.env });
  const session = ctx.sessions.open(a.session);
  try {
    if (session.readOnly) throw new KeelError('session', l10n.t('session {0} is open elsewhere ({1}); close it there first', a.session, session.readOnlyReason ?? l10n.t('another process')));
    const turns = userTurns(session);
    if (turns.length === 0) {
      io.stderr(`keel: ${l10n.t('session {0} has no user turns; nothing to restore.', a.session)}\n`);
      return 0;
    }
    const turn = a.turn ?? turns.length;
    if (turn > turns.length) throw new KeelError('usage', l10n.t('--turn {0}: session {1} has {2} user turn(s)', turn, a.session, turns.length));
    const project = new Project(ctx, session);
    try {
      const outcome = await project.fileUndo!.restore.restoreFrom(turns[turn - 1]!, { force: a.force });
      if (outcome.status === 'reverted') {
        io.stdout(`${l10n.t('Restored (from turn {0} of {1}):', turn, turns.length)}\n${outcome.files.map((f) => `  ${f}`).join('\n')}\n`);
        const skipped = outcome.message.split('\nNot put back:\n')[1];
        if (skipped) io.stderr(`keel: ${l10n.t('not put back:')}\n${skipped}\n`);
        return skipped ? 1 : 0;
      }
      if (outcome.status === 'nothing') {
        io.stdout(`${outcome.message}\n`);
        return 0;
      }
      io.stderr(`keel: ${outcome.message}${outcome.status === 'conflict' ? `\n${l10n.t('Run again with --force to restore anyway.')}` : ''}\n`);
      return 1;
    } finally {
      await project.dispose();
    }
  } finally {
    session.close();
  }
}

/** For each user turn (1-based by position), the tool calls made from it to the end of the conversation. */
function userTurns(session: Session): string[][] {
  const entries = session.entries();
  const turnStarts: number[] = [];
  entries.forEach((e, i) => {
    if (e.kind === 'message' && e.message.role === 'user') turnStarts.push(i);
  });
  return turnStarts.map((start) =>
    entries.slice(start).flatMap((e) => {
      if (e.kind !== 'message' || e.message.role !== 'assistant' || typeof e.message.content === 'string') return [];
      return e.message.content.flatMap((p) => (p.type === 'tool-call' ? [p.toolCallId] : []));
    }),
  );
}
