import * as z from 'zod';

/**
 * The conversation's newest plan as the view shows it. proposed/edited: waiting for the
 * person (Execute, Refine, Discard); executed/refined/discarded: settled.
 */
export const planInfoSchema = z.strictObject({
  id: z.string().regex(/^plan-\d+$/),
  status: z.enum(['proposed', 'edited', 'executed', 'refined', 'discarded']),
  /** Steps found in the plan (they become the todo list when it executes). */
  steps: z.number().int().nonnegative(),
});

export type PlanInfo = z.infer<typeof planInfoSchema>;

const planId = z.strictObject({ planId: planInfoSchema.shape.id });

/** Host methods of plan mode (merged into hostMethods). */
export const planMethods = {
  /** Switch between act and plan mode for the next messages (the composer's switch, "Toggle Plan Mode"). */
  'mode.set': {
    params: z.strictObject({ mode: z.enum(['act', 'plan']) }),
    result: z.strictObject({ mode: z.enum(['act', 'plan']) }),
  },
  /** Open the plan's Markdown file in an editor, where it can be edited before it executes. */
  'plan.open': { params: planId, result: z.strictObject({ opened: z.boolean() }) },
  /** Execute the plan (as its file now reads) in act mode, in this conversation; queued like a message. */
  'plan.execute': { params: planId, result: z.strictObject({ messageId: z.string().min(1), queued: z.boolean() }) },
  /** Ask for a revised plan in plan mode with the person's feedback; queued like a message. */
  'plan.refine': {
    params: z.strictObject({ planId: planInfoSchema.shape.id, feedback: z.string().trim().min(1, 'Say what to change') }),
    result: z.strictObject({ messageId: z.string().min(1), queued: z.boolean() }),
  },
  /** Set the plan aside: it can no longer be executed. */
  'plan.discard': { params: planId, result: z.strictObject({ plan: planInfoSchema }) },
};
