import { errorMessage } from '../errors';
import { evaluate, truthy } from './expressionEval';
import type { Scope } from './expressionEval';
import type { RuleEventName } from './ruleSchema';
import type { CompiledRule, FiredRule, RuleAction, RuleSource } from './ruleTypes';
import { renderTemplate } from './textTemplate';

export interface RuleRun {
  fired: FiredRule[];
  /** Rules whose condition or text failed at run time: each names the rule and its file. */
  problems: string[];
}

interface ThrottleMark {
  at: number;
  task: number;
}

const SOURCE_RANK: Record<RuleSource, number> = { workspace: 0, user: 1, builtin: 2 };

/** Highest priority first; then workspace, user, built-in; then load order. */
export function byPriority(a: CompiledRule, b: CompiledRule): number {
  return b.priority - a.priority || SOURCE_RANK[a.source] - SOURCE_RANK[b.source] || a.order - b.order;
}

/**
 * Runs the rules of one event in priority order and keeps the throttles. One engine lives as
 * long as its conversation; `remember` restores throttles from the session log.
 */
export class RuleEngine {
  private readonly marks = new Map<string, ThrottleMark>();
  private readonly now: () => number;

  constructor(opts: { now?: () => number } = {}) {
    this.now = opts.now ?? Date.now;
  }

  /** A throttle key that fired at `at` (epoch ms) in an earlier task. */
  remember(key: string, at: number): void {
    const known = this.marks.get(key);
    if (!known || known.at < at) this.marks.set(key, { at, task: -1 });
  }

  run(rules: readonly CompiledRule[], event: RuleEventName, scope: Scope, task: number): RuleRun {
    const fired: FiredRule[] = [];
    const problems: string[] = [];
    const seen = new Set<string>();
    const candidates = rules.filter((r) => r.on.has(event)).sort(byPriority);
    for (const rule of candidates) {
      let key: string | undefined;
      let actions: RuleAction[];
      try {
        if (rule.condition && !truthy(evaluate(rule.condition, scope))) continue;
        if (rule.throttle) {
          key = renderTemplate(rule.throttle.key, scope);
          if (this.throttled(key, rule.throttle, task)) continue;
        }
        actions = rule.actions.map((a) => ({ type: a.type, text: renderTemplate(a.text, scope).trim() }));
      } catch (err) {
        problems.push(`Rule "${rule.id}" (${rule.origin}) failed on ${event}: ${errorMessage(err)}. It was skipped.`);
        continue;
      }
      // The same words twice in one request help no one: the first rule to say them keeps them.
      const fresh = actions.filter((a) => {
        const id = `${a.type}\u0000${a.text}`;
        if (a.text === '' || seen.has(id)) return false;
        seen.add(id);
        return true;
      });
      if (key !== undefined) this.marks.set(key, { at: this.now(), task });
      const entry: FiredRule = { id: rule.id, source: rule.source, actions: fresh };
      if (key !== undefined) entry.throttleKey = key;
      fired.push(entry);
      if (rule.stop) break;
    }
    return { fired, problems };
  }

  private throttled(key: string, throttle: NonNullable<CompiledRule['throttle']>, task: number): boolean {
    const mark = this.marks.get(key);
    if (!mark) return false;
    if (throttle.per === 'session') return true;
    if (throttle.per === 'task' && mark.task === task) return true;
    return throttle.ttlMs !== undefined && this.now() - mark.at < throttle.ttlMs;
  }
}
