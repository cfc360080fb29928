import type { MethodSpec } from './side';
import { toolApprovalRequestSchema, toolApprovalResultSchema } from './toolApproval';

/** Requests the webview answers (host → webview). */
export const webviewMethods = {
  /** Ask the person to approve one tool call; cancelled by the host if the run stops first. */
  toolApproval: { params: toolApprovalRequestSchema, result: toolApprovalResultSchema },
} satisfies Record<string, MethodSpec>;
