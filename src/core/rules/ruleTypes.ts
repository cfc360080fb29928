import type { Expr } from './expressionParser';
import type { RuleActionType, RuleEventName } from './ruleSchema';
import type { Template } from './textTemplate';

/** Where a rule came from; on equal priority workspace rules run before the user's, and both before built-ins. */
export type RuleSource = 'workspace' | 'user' | 'builtin';

/** A rule checked and parsed once when its file loads. */
export interface CompiledRule {
  id: string;
  source: RuleSource;
  /** The file it came from, or "built-in": named in every problem about it. */
  origin: string;
  on: ReadonlySet<RuleEventName>;
  condition?: Expr;
  priority: number;
  actions: ReadonlyArray<{ type: RuleActionType; text: Template }>;
  stop: boolean;
  throttle?: { key: Template; ttlMs?: number; per?: 'task' | 'session' };
  /** Position in load order, the last tie-breaker. */
  order: number;
}

export interface RuleAction {
  type: RuleActionType;
  text: string;
}

/** A rule that fired, with the actions it produced (after de-duplication). */
export interface FiredRule {
  id: string;
  source: RuleSource;
  actions: RuleAction[];
  /** The throttle key it used, kept in the session log so throttles survive a reload. */
  throttleKey?: string;
}
