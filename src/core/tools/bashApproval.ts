import { checkCommand } from '../shell/commandRules';
import type { CommandCheck, CommandRules } from '../shell/commandRules';
import { bashSandboxFacts } from './bashSandbox';
import type { BashSandboxInput } from './bashSandbox';
import type { ApprovalHint, ToolContext } from './tool';

const noRules: CommandRules = { allow: [], deny: [] };
/** One check per call: preview and needsApproval share the same ToolContext. */
const checks = new WeakMap<ToolContext, Promise<CommandCheck>>();

/** The command line checked against the rules in the context, from the folder it runs in. */
export function commandCheck(input: { command: string; cwd?: string }, ctx: ToolContext): Promise<CommandCheck> {
  let check = checks.get(ctx);
  if (!check) {
    check = (async () => {
      const cwd = await ctx.workspace.resolve(input.cwd ?? '.');
      return checkCommand(input.command, ctx.commandRules ?? noRules, { cwd, workspace: ctx.workspace });
    })();
    checks.set(ctx, check);
  }
  return check;
}

/** bash's verdict: allowed by the rules or not, what the person must see, what "always allow" adds. */
export async function bashApprovalHint(input: BashSandboxInput, ctx: ToolContext): Promise<ApprovalHint> {
  const check = await commandCheck(input, ctx);
  const sandbox = await bashSandboxFacts(input, ctx);
  const hint: ApprovalHint = { needsApproval: !check.allowed };
  if (check.insist !== undefined) hint.insist = check.insist;
  if (check.suggestions) hint.allowPrefixes = check.suggestions;
  if (check.allowed && check.writesInside.length > 0) hint.writesFiles = true;
  // Network the person granted by their list needs no one; asked-for network insists below.
  if (sandbox.plan.kind === 'sandboxed') hint.sandboxed = true;
  if (sandbox.networkNeedsApproval) {
    hint.network = true;
    hint.insist ??= 'the command asks for network access';
  }
  if (check.allowed && sandbox.plan.kind === 'unsandboxed' && sandbox.plan.why !== 'asked' && check.notReadOnly !== undefined) {
    // Nothing holds an allowed command to reading here: only one known to only read runs unasked.
    hint.needsApproval = true;
    hint.why = `no OS sandbox holds this command to reading, and it is not known to only read: ${check.notReadOnly}`;
  }
  if (input.writable === true && sandbox.plan.kind === 'sandboxed') {
    // An allow rule gives a read-only workspace in manual mode; writing is the person's to grant.
    hint.needsApproval = true;
    hint.writeAccess = true;
    hint.why = 'the command asks for write access to the workspace';
    if (check.allowed) delete hint.allowPrefixes;
  }
  if (sandbox.plan.kind === 'unsandboxed' && sandbox.plan.why === 'asked') {
    // Never remembered: each command outside the sandbox is the person's own decision.
    hint.unsandboxed = true;
    hint.alwaysAsk = 'the command asks to run outside the OS sandbox';
    delete hint.allowPrefixes;
  }
  return hint;
}
