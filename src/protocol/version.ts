/**
 * Version of the frames and message schemas. Host and webview ship together, so a
 * mismatch means a stale webview (or a bug); bump it on any incompatible change.
 * 3: the page answers a tool approval in the core's terms (`toolApprovalAnswerSchema`).
 */
export const PROTOCOL_VERSION = 3;
