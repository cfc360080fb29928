import type { MethodSpec } from './side';
import { toolApprovalAnswerSchema, toolApprovalRequestSchema } from './toolApproval';

/** Requests the webview answers (host → webview). */
export const webviewMethods = {
  /** Ask the person to approve one tool call; cancelled by the host if the run stops first. */
  toolApproval: { params: toolApprovalRequestSchema, result: toolApprovalAnswerSchema },
} satisfies Record<string, MethodSpec>;
