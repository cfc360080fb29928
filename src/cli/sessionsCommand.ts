import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import { SessionStore } from '../core/session';
import { keelHome } from '../core/paths';
import type { SessionsArgs } from './cliArgs';
import type { CliIo } from './cliIo';

export function sessionsCommand(a: SessionsArgs, io: CliIo): number {
  const store = new SessionStore({
    home: keelHome(io.env),
    workspace: { root: resolve(a.cwd) },
    onWarning: (message) => io.stderr(`keel [warn] ${message}\n`),
  });
  const list = store.list();
  if (a.json) {
    io.stdout(`${JSON.stringify(list)}\n`);
    return 0;
  }
  if (list.length === 0) {
    io.stderr(`${l10n.t('No sessions for {0}.', resolve(a.cwd))}\n`);
    return 0;
  }
  for (const s of list) {
    io.stdout(`${s.id}\t${s.updatedAt}\t${s.messageCount === 1 ? l10n.t('1 message') : l10n.t('{0} messages', s.messageCount)}\t${s.title}\n`);
  }
  return 0;
}
