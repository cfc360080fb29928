import type { UiMessage } from '../protocol/uiMessage';

/**
 * Where a new message goes in the conversation, the one ordering rule the host and the view
 * share: queued prompts stay last, anything else goes just before them.
 * `statusAt(i)` is the status of the message at position i of the current order.
 */
export function insertionIndex(length: number, statusAt: (index: number) => UiMessage['status'] | undefined, status: UiMessage['status']): number {
  let at = length;
  if (status !== 'queued') {
    while (at > 0 && statusAt(at - 1) === 'queued') at--;
  }
  return at;
}
