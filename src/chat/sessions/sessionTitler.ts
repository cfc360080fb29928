import type { Context } from '../../core/context';
import { errorMessage } from '../../core/errors';
import type { Session } from '../../core/session';
import { generateTitle } from '../../core/session';
import type { LogFn } from '../../protocol/log';
import { firstExchange } from './sessionView';

/**
 * Names a conversation once its first reply is in, with the small model, in the background:
 * the reply is never held up, and a failure only leaves the first prompt as the title.
 * Each session is tried once per window; a title the person set is never replaced.
 */
export class SessionTitler {
  private readonly tried = new Set<string>();

  constructor(private readonly log: LogFn) {}

  /** Starts naming `session` if it is due; `onTitle` hears the new title. */
  maybeTitle(ctx: Context, session: Session, onTitle: (title: string) => void): void {
    if (session.readOnly || this.tried.has(session.id) || session.config().title !== undefined) return;
    const exchange = firstExchange(session);
    if (!exchange) return;
    this.tried.add(session.id);
    void this.run(ctx, session, exchange, onTitle);
  }

  private async run(ctx: Context, session: Session, exchange: { prompt: string; reply: string }, onTitle: (title: string) => void): Promise<void> {
    try {
      const model = ctx.models.resolve('smallModel');
      const title = await generateTitle(model.model, exchange.prompt, exchange.reply, AbortSignal.timeout(30_000));
      // The person may have renamed it meanwhile, or closed it: both win over the model.
      if (!title || session.readOnly || session.config().title !== undefined) return;
      session.appendConfig('title', title);
      onTitle(session.summary().title);
    } catch (err) {
      this.log('info', `session ${session.id}: no generated title (${errorMessage(err)}); the first prompt stays its title`);
    }
  }
}
