import * as z from 'zod';

/** Steps a subagent's card lists; past it the oldest are dropped (the count says how many). */
export const MAX_SUBAGENT_STEPS = 200;
/** Characters of one step's text (a tool's one line, the subagent's message). */
export const MAX_SUBAGENT_STEP_CHARS = 4_000;

const stepText = z.string().max(MAX_SUBAGENT_STEP_CHARS);

/** One thing a subagent did: a tool call (its card's title and line, how it ended) or what it wrote. */
export const subagentStepSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('tool'),
    /** The subagent's call id (`<task call id>.<its own>`): its result finds it by this. */
    id: z.string().min(1),
    title: stepText,
    summary: stepText,
    state: z.enum(['running', 'done', 'error']),
  }),
  z.strictObject({ kind: z.literal('text'), text: stepText }),
]);

/** What a `task` call's card holds of its subagent: which agent, and its steps in order. */
export const subagentViewSchema = z.strictObject({
  agent: z.string().min(1),
  steps: z.array(subagentStepSchema).max(MAX_SUBAGENT_STEPS),
  /** Steps dropped from the front to stay within MAX_SUBAGENT_STEPS. */
  dropped: z.number().int().nonnegative().optional(),
});

/** One step for the card of `toolCallId`: a new step, or (a tool step with an id it holds) that step's end. */
export const subagentStepEventSchema = z.strictObject({
  toolCallId: z.string().min(1),
  agent: z.string().min(1),
  step: subagentStepSchema,
});

export type SubagentStepView = z.infer<typeof subagentStepSchema>;
export type SubagentView = z.infer<typeof subagentViewSchema>;

/** The card's subagent after one more step: a tool step with an id already there replaces it, anything else is appended. */
export function withSubagentStep(view: SubagentView | undefined, agent: string, step: SubagentStepView): SubagentView {
  const steps = view?.steps ?? [];
  if (step.kind === 'tool') {
    const at = steps.findIndex((s) => s.kind === 'tool' && s.id === step.id);
    if (at >= 0) return { ...view!, steps: steps.map((s, i) => (i === at ? step : s)) };
  }
  const next = [...steps, step];
  const over = Math.max(0, next.length - MAX_SUBAGENT_STEPS);
  const dropped = (view?.dropped ?? 0) + over;
  return { agent: view?.agent ?? agent, steps: over ? next.slice(over) : next, ...(dropped ? { dropped } : {}) };
}
