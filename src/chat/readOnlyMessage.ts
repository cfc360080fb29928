/** What the person reads when a conversation is open for writing in another window. */
export function readOnlyMessage(reason: string): string {
  return `This conversation is read-only in this window: ${reason}. Two windows writing one conversation would corrupt it; continue it in that window, or start a new chat here.`;
}
