import type { RuleFile } from './rulesFiles';

/** Token budget of each built-in section (estimated as characters / 4). */
export interface SectionBudgets {
  environment: number;
  git: number;
  structure: number;
  rules: number;
  /** The skills' names and descriptions. */
  skills: number;
  readme: number;
  editor: number;
  /** Each plugin section that does not ask for its own budget. */
  plugin: number;
}

export const defaultBudgets: SectionBudgets = {
  environment: 400,
  git: 1_500,
  structure: 2_500,
  rules: 10_000,
  skills: 2_000,
  readme: 1_500,
  editor: 2_000,
  plugin: 1_000,
};

/** What a plugin's `context` hook returns: extra sections for the model's context. */
export interface PluginContextSection {
  title: string;
  text: string;
  /** Defaults to the plugin budget; capped at 8,000. */
  budgetTokens?: number;
}

export interface ContextSection {
  /** `environment`, `git`, `structure`, `rules`, `skills`, `readme`, `editor`, or `plugin:<title>`. */
  id: string;
  title: string;
  /** The text the model sees, already within budget (with a cut note when it was cut). */
  text: string;
  tokens: number;
  budget: number;
  cut: boolean;
}

/** `listed`: a rule with a description, named for the model to read when it fits the task. */
export type RuleStatus = 'included' | 'cut' | 'omitted' | 'listed';

/** A rules file the model is following, for the view's "rules in effect". */
export interface RuleInEffect extends RuleFile {
  tokens: number;
  /** `cut`: only its start fit the rules budget; `omitted`: the budget was used up before it. */
  status: RuleStatus;
}

export interface GatheredContext {
  sections: ContextSection[];
  rules: RuleInEffect[];
  /** Sum of the sections' tokens. */
  tokens: number;
}
