import type { ToolCallState } from '../../../src/protocol/uiMessage';

/** Codicon and words for each tool call state. */
export const TOOL_STATE_DISPLAY: Record<ToolCallState, { icon: string; label: string; spin?: boolean }> = {
  streaming: { icon: 'loading', label: 'Preparing', spin: true },
  awaitingApproval: { icon: 'shield', label: 'Waiting for approval' },
  running: { icon: 'loading', label: 'Running', spin: true },
  done: { icon: 'check', label: 'Done' },
  error: { icon: 'error', label: 'Failed' },
  rejected: { icon: 'circle-slash', label: 'Rejected' },
  cancelled: { icon: 'debug-stop', label: 'Cancelled' },
};

const KEY_ARGUMENTS = ['command', 'path', 'file_path', 'filePath', 'pattern', 'url', 'query', 'glob'];

/** The card's one-line header: the host's summary, or the call's most telling argument. */
export function toolCallHeadline(summary: string, input: unknown): string {
  if (summary.trim()) return summary;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const record = input as Record<string, unknown>;
  for (const key of KEY_ARGUMENTS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return '';
}
