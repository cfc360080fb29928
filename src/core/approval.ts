import type { ApprovalMode } from './config/configSchema';
import type { ToolCategory } from './tools/tool';

export interface ApprovalFacts {
  mode: ApprovalMode;
  category: ToolCategory;
  /** The call touches a protected path (rules files, .vscode, .git, .keel, MCP configs...). */
  touchesProtected: boolean;
  /** The tool's own verdict for this input; undefined when it has none. */
  toolNeedsApproval?: boolean;
  /** The person must decide unless in yolo (a command deny rule, a write outside the workspace). */
  insist?: string;
  /** The person allowed this tool for the rest of the session. */
  allowedForSession: boolean;
  /** Ask in every mode, yolo included (a command outside the OS sandbox). */
  alwaysAsk?: string;
  /** A command confined by the OS sandbox (workspace minus protected paths, no network). */
  sandboxed?: boolean;
  /** The tool allows the call, but it writes files (a command's redirections): a write's rule applies to them. */
  writesFiles?: boolean;
  /** Why the tool asks (its own words for the rule). */
  why?: string;
}

/**
 * `readOnlyWorkspace`: a command allowed only by a rule the tool matched, in manual mode: an
 * allow rule allows reading, so it runs with the workspace read-only.
 */
export type ApprovalVerdict = { decision: 'allow'; rule: string; readOnlyWorkspace?: boolean } | { decision: 'ask'; rule: string };

/**
 * The approval order. Protected paths come first so that no mode, tool verdict or
 * session allowance can let the agent change its own rules or settings unasked. Only an
 * explicit yolo skips what a tool insists on (deny rules, writes outside the workspace).
 */
export function decideApproval(f: ApprovalFacts): ApprovalVerdict {
  if (f.alwaysAsk !== undefined) return { decision: 'ask', rule: f.alwaysAsk };
  if (f.touchesProtected && f.category !== 'read') return { decision: 'ask', rule: 'protected path' };
  if (f.mode === 'yolo') return { decision: 'allow', rule: 'yolo mode' };
  if (f.category === 'read') return { decision: 'allow', rule: 'read-only tool' };
  if (f.insist !== undefined) return { decision: 'ask', rule: f.insist };
  // An allow rule allows the command, not every file it writes: in manual mode a write asks.
  if (f.toolNeedsApproval === false && f.writesFiles && f.mode === 'manual') return { decision: 'ask', rule: 'the command writes files' };
  if (f.toolNeedsApproval === false) {
    if (f.category === 'command' && f.mode === 'manual') return { decision: 'allow', rule: 'tool says no approval needed', readOnlyWorkspace: true };
    return { decision: 'allow', rule: 'tool says no approval needed' };
  }
  if (f.category === 'write' && f.mode === 'autoEdit') return { decision: 'allow', rule: 'autoEdit mode' };
  // The OS holds its writes to what autoEdit allows for edits anyway, and it has no network.
  if (f.category === 'command' && f.sandboxed && f.mode === 'autoEdit') return { decision: 'allow', rule: 'sandboxed command in autoEdit mode' };
  if (f.allowedForSession) return { decision: 'allow', rule: 'allowed for this session' };
  return { decision: 'ask', rule: f.why ?? 'needs approval' };
}
