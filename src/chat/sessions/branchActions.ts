import * as l10n from '@vscode/l10n';
import { BusError } from '../../protocol/busError';
import type { RequestParams, RequestResult } from '../../protocol/catalogue';
import type { Conversation } from '../conversations/conversation';
import { showActiveBranch } from '../conversations/conversationLoad';
import { uiErrorOf } from '../runs/runContext';
import type { ModelForRun } from '../runs/sendRun';

/**
 * What the person does with the versions of the conversation in view: edit a prompt and
 * resend it, switch between versions, load its earlier part. Each stops that conversation's
 * run first; `shown` sends the view the new state whole.
 */
export class BranchActions {
  constructor(
    private readonly conversation: () => Conversation,
    private readonly shown: () => void,
  ) {}

  /** "Edit and resend": the branch goes back to before that prompt and the edited text is sent from there. */
  async editAndResend(params: RequestParams<'session.editAndResend'>): Promise<RequestResult<'session.editAndResend'>> {
    const conversation = this.conversation();
    await conversation.stopAndWait();
    const session = writableSession(conversation);
    // Without a usable model the branch would be cut and nothing sent: refuse first, fork nothing.
    let model: ModelForRun;
    try {
      const { ctx } = await conversation.core.get();
      model = { ctx, model: ctx.models.resolve(conversation.state.run.mode === 'plan' ? 'planModel' : 'model') };
    } catch (err) {
      const error = uiErrorOf(conversation.core, err);
      throw new BusError(error.code, error.message);
    }
    session.fork(session.parentOf(params.messageId));
    this.show(conversation);
    return conversation.send({ text: params.text }, model);
  }

  async switchBranch(params: RequestParams<'session.switchBranch'>): Promise<RequestResult<'session.switchBranch'>> {
    const conversation = this.conversation();
    await conversation.stopAndWait();
    const session = writableSession(conversation);
    const { messageId } = params;
    const point = session.branchPoints().get(messageId);
    const target = point?.siblings[params.index - 1];
    if (!point || !target) throw new BusError('invalid_params', l10n.t('That message has no version {0}.', params.index));
    if (target !== messageId) session.switchBranch(target);
    this.show(conversation);
    return { session: { ...conversation.state.session } };
  }

  /** The whole of a long conversation the view got the end of. */
  async loadEarlier(): Promise<RequestResult<'session.loadEarlier'>> {
    const conversation = this.conversation();
    await conversation.stopAndWait();
    const shown = conversation.hiddenEarlier;
    if (!conversation.slot.current || shown === 0) return { shown: 0 };
    this.show(conversation, Number.POSITIVE_INFINITY);
    return { shown };
  }

  private show(conversation: Conversation, window?: number): void {
    showActiveBranch(conversation, window);
    if (conversation === this.conversation()) this.shown();
  }
}

function writableSession(conversation: Conversation) {
  const session = conversation.slot.current?.session;
  if (!session) throw new BusError('invalid_params', l10n.t('There is no saved conversation in view to branch.'));
  if (session.readOnly) throw new BusError('invalid_params', l10n.t('This conversation is read-only here ({0}).', session.readOnlyReason ?? l10n.t('another window')));
  return session;
}
