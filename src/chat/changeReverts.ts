import * as l10n from '@vscode/l10n';
import type { ChangeJournal, RevertOutcome } from '../core/journal/changeJournal';
import type { Project } from '../core/project';
import type { RequestParams, RequestResult } from '../protocol/catalogue';
import type { LogFn } from '../protocol/log';
import type { ConversationState } from './conversationState';

export interface ChangeRevertsDeps {
  project(): Project | undefined;
  isRunning(): boolean;
  state: ConversationState;
  log: LogFn;
}

type Refused = { status: 'failed'; message: string };

/** Putting files back from the change journal: one change (undo), or everything since a message (restore). */
export class ChangeReverts {
  constructor(private readonly deps: ChangeRevertsDeps) {}

  async undo(params: RequestParams<'change.undo'>): Promise<RequestResult<'change.undo'>> {
    const journal = this.journal();
    if ('status' in journal) return journal;
    return this.reverted(await journal.undo(params.changeId, { force: params.force === true }));
  }

  async restore(params: RequestParams<'changes.restore'>): Promise<RequestResult<'changes.restore'>> {
    const journal = this.journal();
    if ('status' in journal) return journal;
    const calls = this.deps.state.toolCallIdsFrom(params.messageId);
    if (!calls) return { status: 'nothing', message: l10n.t('That message is not in this conversation.') };
    return this.reverted(await journal.restoreFrom(calls, { force: params.force === true }));
  }

  private journal(): ChangeJournal | Refused {
    const journal = this.deps.project()?.journal;
    if (!journal) return { status: 'failed', message: l10n.t('This conversation has no record of file changes it can put back (it is open read-only or not started).') };
    if (this.deps.isRunning()) return { status: 'failed', message: l10n.t('Keel is working in this conversation: stop it or let it finish, then put files back.') };
    return journal;
  }

  private reverted(outcome: RevertOutcome): RequestResult<'change.undo'> {
    if (outcome.status === 'reverted') this.deps.state.markReverted(new Set(outcome.reverted.map((e) => e.id)));
    this.deps.log(outcome.status === 'reverted' || outcome.status === 'nothing' ? 'info' : 'warn', `change journal: ${outcome.message}`);
    return { status: outcome.status, message: outcome.message };
  }
}
