import type { Host } from '../host';
import { estimateTokens, fitToBudget } from '../llmsContext/tokenBudget';
import type { FileReadTracker } from '../tools/fileReadTracker';
import type { Workspace } from '../workspace/workspace';
import { expandProblems, expandSelection, expandTerminal } from './editorMentions';
import { expandFile, expandFolder } from './fileMentions';
import type { MentionBody } from './fileMentions';
import { expandBranchDiff, expandGitDiff } from './gitMention';
import { mentionBlock, mentionLabel, mentionsHeader } from './mentionBlock';
import type { ExpandedMentions, Mention, MentionOutcome } from './mentionTypes';

export interface MentionDeps {
  workspace: Workspace;
  host: Host;
  /** Files shown whole or in part count as read, like the read tool's. */
  reads?: FileReadTracker;
  /** Fetches a URL the way the fetch tool does, approval included; absent: @url is refused. */
  fetchUrl?(url: string): Promise<MentionBody>;
  /** Reads a resource of an MCP server as text; absent: @server:uri is refused. */
  readResource?(server: string, uri: string): Promise<MentionBody>;
  signal?: AbortSignal;
}

export interface MentionBudget {
  /** All mentions of one message together. */
  totalTokens: number;
  /** Any one mention. */
  perMentionTokens: number;
}

export const defaultMentionBudget: MentionBudget = { totalTokens: 24_000, perMentionTokens: 10_000 };

/** Below this many tokens left, a mention is left out rather than shown as a stub. */
const minUsefulTokens = 100;

/**
 * Turns the person's @-mentions into one text part for the model: each mention's content
 * in a tagged block, in the order given, within a per-mention cap and a total budget.
 * What was cut or left out is said in place and summed up at the end.
 */
export async function expandMentions(mentions: readonly Mention[], deps: MentionDeps, budget: MentionBudget = defaultMentionBudget): Promise<ExpandedMentions> {
  const unique = dedupe(mentions);
  if (unique.length === 0) return { text: '', outcomes: [], tokens: 0 };
  const blocks: string[] = [];
  const outcomes: MentionOutcome[] = [];
  let used = estimateTokens(mentionsHeader);
  for (const mention of unique) {
    const label = mentionLabel(mention);
    const overhead = estimateTokens(mentionBlock(mention, ''));
    const room = Math.min(budget.perMentionTokens, budget.totalTokens - used) - overhead;
    if (room < minUsefulTokens) {
      const block = mentionBlock(mention, `[not attached: the ${budget.totalTokens.toLocaleString('en-US')}-token budget for mentions was used up by the mentions before it]`);
      blocks.push(block);
      used += estimateTokens(block);
      outcomes.push({ mention, label, status: 'omitted', tokens: estimateTokens(block), note: 'mentions budget used up' });
      continue;
    }
    const body = await expandOne(mention, deps);
    let block: string;
    let outcome: MentionOutcome;
    if (!body.ok) {
      block = mentionBlock(mention, `[could not attach ${label}: ${body.reason}]`);
      outcome = { mention, label, status: 'failed', tokens: 0, note: body.reason };
    } else {
      const fitted = fitToBudget(body.body, room, body.hint);
      block = mentionBlock(mention, fitted.text);
      outcome = { mention, label, status: fitted.cut ? 'cut' : 'included', tokens: 0 };
      if (fitted.cut) outcome.note = `cut to ${room.toLocaleString('en-US')} tokens`;
    }
    outcome.tokens = estimateTokens(block);
    used += outcome.tokens;
    blocks.push(block);
    outcomes.push(outcome);
  }
  const short = outcomes.filter((o) => o.status === 'cut' || o.status === 'omitted');
  const parts = [mentionsHeader, ...blocks];
  if (short.length) {
    parts.push(
      `[Mentions share a budget of ${budget.totalTokens.toLocaleString('en-US')} tokens (at most ` +
        `${budget.perMentionTokens.toLocaleString('en-US')} each); ${short.map((o) => `${o.label} was ${o.status === 'cut' ? 'cut' : 'left out'}`).join(', ')}. ` +
        'Use the tools to read what is missing.]',
    );
  }
  const text = parts.join('\n\n');
  return { text, outcomes, tokens: estimateTokens(text) };
}

function expandOne(m: Mention, deps: MentionDeps): Promise<MentionBody> {
  switch (m.kind) {
    case 'file':
      return expandFile(m.path, m.range, deps.workspace, deps.reads);
    case 'folder':
      return expandFolder(m.path, deps.workspace);
    case 'problems':
      return expandProblems(deps.host, deps.workspace);
    case 'selection':
      return expandSelection(deps.host, deps.workspace);
    case 'terminal':
      return expandTerminal(deps.host);
    case 'git':
      return m.base ? expandBranchDiff(deps.workspace.root, m.base, deps.signal) : expandGitDiff(deps.workspace.root, deps.signal);
    case 'url':
      if (!deps.fetchUrl) return Promise.resolve({ ok: false, reason: 'fetching web pages is not available here' });
      return deps.fetchUrl(m.url);
    case 'resource':
      if (!deps.readResource) return Promise.resolve({ ok: false, reason: 'MCP resources are not available here' });
      return deps.readResource(m.server, m.uri);
  }
}

function dedupe(mentions: readonly Mention[]): Mention[] {
  const seen = new Set<string>();
  return mentions.filter((m) => {
    const key = mentionLabel(m);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
