import type { CommandRules } from './shell/commandRules';
import type { ApprovalHint } from './tools/tool';

/** A tool's needsApproval answer as approval facts: the plain verdict, and the hint when it gave one. */
export function readApprovalHint(raw: boolean | ApprovalHint | undefined): { needsApproval?: boolean; hint?: ApprovalHint } {
  if (raw === undefined) return {};
  if (typeof raw === 'boolean') return { needsApproval: raw };
  return { needsApproval: raw.needsApproval, hint: raw };
}

/** The command rules in force: the config's, plus the prefixes "always allow" added in this session. */
export function commandRulesFor(config: { allow: readonly string[]; deny: readonly string[] }, sessionAllowed: ReadonlySet<string>): CommandRules {
  return { allow: [...config.allow, ...sessionAllowed], deny: [...config.deny] };
}
