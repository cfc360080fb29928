import type { LogFn } from '../../protocol/log';
import type { UiError } from '../../protocol/sessionState';
import type { ApprovalFlow } from '../approvals/approvalFlow';
import type { ConversationState } from '../conversations/conversationState';
import type { CoreAccess } from '../runtime/coreAccess';
import type { ProjectSlot } from '../runtime/projectSlot';
import { thrownError } from './runErrors';

/** What a queued run works with: the core, the conversation in view and its state. */
export interface RunContext {
  core: CoreAccess;
  log: LogFn;
  state: ConversationState;
  slot: ProjectSlot;
  approvals: ApprovalFlow;
  /** Runs waiting behind this one. */
  waiting(): number;
  /** Running or waiting for the person changed. */
  activity(): void;
}

/** A thrown error as the person reads it, with the core's secrets taken out. */
export function uiErrorOf(core: CoreAccess, err: unknown, secrets: readonly string[] = core.peek()?.secrets ?? []): UiError {
  return thrownError(err, secrets);
}
