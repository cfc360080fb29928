import type { RuleInEffect } from './contextTypes';
import type { RuleFile } from './rulesFiles';
import { oneLine } from '../tools/toolPresentation';
import { estimateTokens, fitToBudget } from './tokenBudget';

/** Below this many tokens left, a rules file is listed as omitted rather than shown as a stub. */
const minUsefulTokens = 150;

export interface RulesText {
  text: string;
  rules: RuleInEffect[];
  tokens: number;
  cut: boolean;
}

/** One rules file as the model sees it. */
export function ruleBlock(rule: RuleFile, body: string): string {
  const applies = rule.appliesTo ? ` applies_to="${rule.appliesTo}"` : rule.matched ? ` applies_to="${rule.matched.glob}"` : '';
  return `<rules file="${rule.display}" scope="${rule.scope}"${applies}>\n${body.trim()}\n</rules>`;
}

/** The rules with a description only: named with it, for the model to read when the task fits. */
function listedBlock(rules: readonly RuleFile[]): string {
  const lines = rules.map((r) => `- ${r.display}: ${oneLine(r.description ?? '', 200)}`.trimEnd());
  return `Rules to read (with the read tool) when the task fits their description:\n${lines.join('\n')}`;
}

/**
 * The rules section: every file in order (global, workspace roots, nested shallow to deep),
 * each given at most 60% of the budget so one long file cannot crowd out the rest. Files
 * that do not fit are named, so the model can still read them.
 */
export function buildRulesSection(files: readonly { rule: RuleFile; text: string }[], budget: number): RulesText {
  const perFile = Math.max(minUsefulTokens, Math.floor(budget * 0.6));
  const blocks: string[] = [];
  const rules: RuleInEffect[] = [];
  const omitted: string[] = [];
  let used = 0;
  const listed = files.filter((f) => f.rule.trigger === 'described').map((f) => f.rule);
  for (const { rule, text } of files) {
    if (rule.trigger === 'described') continue;
    const room = Math.min(perFile, budget - used);
    if (room < minUsefulTokens) {
      rules.push({ ...rule, tokens: 0, status: 'omitted' });
      omitted.push(rule.display);
      continue;
    }
    const fitted = fitToBudget(text.trim(), room - estimateTokens(ruleBlock(rule, '')), `read ${rule.display} for the rest`);
    const block = ruleBlock(rule, fitted.text);
    used += estimateTokens(block);
    blocks.push(block);
    rules.push({ ...rule, tokens: estimateTokens(block), status: fitted.cut ? 'cut' : 'included' });
  }
  if (listed.length) {
    const block = listedBlock(listed);
    const tokens = estimateTokens(block);
    blocks.push(block);
    for (const rule of listed) rules.push({ ...rule, tokens: Math.ceil(tokens / listed.length), status: 'listed' });
  }
  if (blocks.length === 0 && omitted.length === 0) return { text: '', rules, tokens: 0, cut: false };
  const parts = [
    'Rules for agents in this workspace. Follow them; nested rules apply to files under their folder and win over broader ones; rules with applies_to apply to the files that match it.',
    ...blocks,
  ];
  if (omitted.length) {
    parts.push(`[rules budget of ${budget.toLocaleString('en-US')} tokens used up; not shown, read them before working in their folders: ${omitted.join(', ')}]`);
  }
  const text = parts.join('\n');
  return { text, rules, tokens: estimateTokens(text), cut: omitted.length > 0 || rules.some((r) => r.status === 'cut') };
}
