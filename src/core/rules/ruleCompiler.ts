import * as z from 'zod';
import { errorMessage } from '../errors';
import { parseExpression } from './expressionParser';
import { ruleSchema } from './ruleSchema';
import type { RuleSpec } from './ruleSchema';
import type { CompiledRule, RuleSource } from './ruleTypes';
import { parseTemplate } from './textTemplate';

export type CompileResult = { ok: true; rule: CompiledRule } | { ok: false; problem: string };

/**
 * Checks one rule against the schema and parses its condition, texts and throttle key.
 * A problem names the rule (its id, or its position when it has none) and where it came from.
 */
export function compileRule(raw: unknown, source: RuleSource, origin: string, order: number, index: number): CompileResult {
  const label = ruleLabel(raw, index);
  const parsed = ruleSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, problem: `${origin}: rule ${label} is invalid: ${formatIssues(parsed.error.issues)}` };
  }
  try {
    return { ok: true, rule: compileSpec(parsed.data, source, origin, order) };
  } catch (err) {
    return { ok: false, problem: `${origin}: rule ${label}: ${errorMessage(err)}` };
  }
}

export function compileSpec(spec: RuleSpec, source: RuleSource, origin: string, order: number): CompiledRule {
  const rule: CompiledRule = {
    id: spec.id,
    source,
    origin,
    on: new Set(typeof spec.on === 'string' ? [spec.on] : spec.on),
    priority: spec.priority ?? 0,
    actions: spec.actions.map((a, i) => ({ type: a.type, text: within(`actions[${i}].text`, () => parseTemplate(a.text)) })),
    stop: spec.stop ?? false,
    order,
  };
  if (spec.if !== undefined) {
    const text = spec.if;
    rule.condition = within('"if"', () => parseExpression(text));
  }
  if (spec.throttle) {
    const { key, ttlSeconds, per } = spec.throttle;
    rule.throttle = { key: within('throttle.key', () => parseTemplate(key ?? spec.id)) };
    if (ttlSeconds !== undefined) rule.throttle.ttlMs = ttlSeconds * 1000;
    if (per !== undefined) rule.throttle.per = per;
  }
  return rule;
}

function within<T>(where: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new Error(`${where}: ${errorMessage(err)}`);
  }
}

function ruleLabel(raw: unknown, index: number): string {
  const id = raw && typeof raw === 'object' && 'id' in raw ? (raw as { id: unknown }).id : undefined;
  return typeof id === 'string' && id.length > 0 ? `"${id.slice(0, 100)}"` : `#${index + 1}`;
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}
