import { resolve } from 'node:path';
import { Context } from '../core/context';
import { KeelError } from '../core/errors';
import { createFsHost } from '../core/fsHost';
import { Project } from '../core/project';
import type { Session } from '../core/session/session';
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
    if (session.readOnly) throw new KeelError('session', `session ${a.session} is open elsewhere (${session.readOnlyReason ?? 'another process'}); close it there first`);
    const turns = userTurns(session);
    if (turns.length === 0) {
      io.stderr(`keel: session ${a.session} has no user turns; nothing to restore.\n`);
      return 0;
    }
    const turn = a.turn ?? turns.length;
    if (turn > turns.length) throw new KeelError('usage', `--turn ${turn}: session ${a.session} has ${turns.length} user turn(s)`);
    const project = new Project(ctx, session);
    try {
      const outcome = await project.fileUndo!.restore.restoreFrom(turns[turn - 1]!, { force: a.force });
      if (outcome.status === 'reverted') {
        io.stdout(`Restored (from turn ${turn} of ${turns.length}):\n${outcome.files.map((f) => `  ${f}`).join('\n')}\n`);
        const skipped = outcome.message.split('\nNot put back:\n')[1];
        if (skipped) io.stderr(`keel: not put back:\n${skipped}\n`);
        return skipped ? 1 : 0;
      }
      if (outcome.status === 'nothing') {
        io.stdout(`${outcome.message}\n`);
        return 0;
      }
      io.stderr(`keel: ${outcome.message}${outcome.status === 'conflict' ? '\nRun again with --force to restore anyway.' : ''}\n`);
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
