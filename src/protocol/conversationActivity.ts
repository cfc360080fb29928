import * as z from 'zod';

/**
 * What a conversation of this window is doing, for the sessions list: running, waiting for
 * the person's approval, waiting for a free run slot (keel.maxConcurrentRuns), or ended in
 * the background since the person last looked at it (finished or failed). Absent: idle.
 */
export const conversationActivitySchema = z.enum(['running', 'approval', 'queued', 'finished', 'failed']);

export type ConversationActivity = z.infer<typeof conversationActivitySchema>;

/** Every conversation of the window that is not idle, by session id (sent whole: it is short). */
export const sessionActivitySchema = z.strictObject({
  sessions: z.record(z.string().min(1), conversationActivitySchema),
});
