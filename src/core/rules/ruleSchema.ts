import * as z from 'zod';

/** The moments in a conversation that rules can react to. */
export const ruleEventNames = ['session_start', 'prompt_submit', 'tool_result', 'task_complete', 'plan_ready'] as const;
export type RuleEventName = (typeof ruleEventNames)[number];

export const ruleActionTypes = ['inject_context', 'reminder', 'notify'] as const;
export type RuleActionType = (typeof ruleActionTypes)[number];

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/** What a rule does; `text` may hold `{{ expression }}` holes filled from the event. */
export const ruleActionSchema = z.discriminatedUnion('type', [
  /** Added to the model's context for its next request. */
  z.strictObject({ type: z.literal('inject_context'), text: text(20_000) }),
  /** A short system note to the model with its next request. */
  z.strictObject({ type: z.literal('reminder'), text: text(2_000) }),
  /** A message shown to the person (the view; a stderr line in the CLI). */
  z.strictObject({ type: z.literal('notify'), text: text(500) }),
]);
export type RuleActionSpec = z.output<typeof ruleActionSchema>;

export const ruleThrottleSchema = z
  .strictObject({
    /** Rules sharing a key share the throttle; default the rule's id. May hold `{{ }}` holes. */
    key: z.string().min(1).max(200).optional(),
    /** At most once per this many seconds. */
    ttlSeconds: z.number().positive().optional(),
    /** At most once per task (one prompt and the work it starts) or per conversation. */
    per: z.enum(['task', 'session']).optional(),
  })
  .refine((t) => t.ttlSeconds !== undefined || t.per !== undefined, { message: 'give ttlSeconds, per, or both' });
export type RuleThrottle = z.output<typeof ruleThrottleSchema>;

export const ruleSchema = z.strictObject({
  id: z
    .string()
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'letters, digits and . _ : - only, starting with a letter or digit')
    .describe('Names the rule in the view, the session log and errors.'),
  description: z.string().max(500).optional(),
  /** One event name or several. */
  on: z.union([z.enum(ruleEventNames), z.array(z.enum(ruleEventNames)).min(1)]).describe('The event or events the rule reacts to.'),
  /** A condition in the rules expression language; absent: always. */
  if: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('A condition such as event.tool == "edit" && event.path.endsWith(".sql"); absent: always.'),
  /** Higher runs first; default 0. */
  priority: z.number().int().min(-1000).max(1000).optional().describe('Higher runs first; default 0.'),
  actions: z.array(ruleActionSchema).min(1).max(10),
  /** When this rule fires, rules after it (lower priority) do not run for this event. */
  stop: z.boolean().optional().describe('When this rule fires, lower rules do not run for this event.'),
  throttle: ruleThrottleSchema.optional(),
  /** false turns the rule off without deleting it. */
  enabled: z.boolean().optional().describe('false turns the rule off.'),
});
export type RuleSpec = z.output<typeof ruleSchema>;

/**
 * `.keel/rules.json` in a workspace folder and `$KEEL_HOME/rules.json`. Rules are checked
 * one by one, so a broken rule is reported and skipped while the others still work.
 */
export const rulesFileSchema = z.strictObject({
  $schema: z.string().optional(),
  rules: z.array(z.unknown()).max(200).optional(),
  /** Ids of rules to turn off: built-in ones (`builtin.run-tests`) or the user's. */
  disable: z.array(z.string().min(1)).optional(),
});

/**
 * The whole file with every rule spelled out, for editors (`media/rules.schema.json`, which
 * VS Code uses to check and complete `.keel/rules.json`). Keel itself reads rules one by one.
 */
export const rulesFileEditorSchema = z
  .strictObject({
    $schema: z.string().optional(),
    rules: z.array(ruleSchema).max(200).optional().describe('Keel event rules: reminders, context and notices on conversation events.'),
    disable: z.array(z.string().min(1)).optional().describe('Ids of rules to turn off, such as builtin.run-tests or builtin.plan-confirm.'),
  })
  .describe('Keel event rules (see the "Event rules" section of Keel\'s README).');
