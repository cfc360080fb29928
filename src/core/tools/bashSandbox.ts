import type { SandboxPlan } from '../sandbox/commandSandbox';
import { checkCommand } from '../shell/commandRules';
import type { ToolContext } from './tool';

export interface BashSandboxInput {
  command: string;
  cwd?: string;
  network?: boolean;
  unsandboxed?: boolean;
  writable?: boolean;
}

/** How one bash call runs: sandboxed or not, with the network or not, and whether the network needs the person. */
export interface BashSandboxFacts {
  plan: SandboxPlan;
  /** The command gets the network (asked for and approved, or on the person's network list, or no sandbox at all). */
  network: boolean;
  /** The model asked for the network and no network rule of the person grants it: the person decides. */
  networkNeedsApproval: boolean;
}

const facts = new WeakMap<ToolContext, Promise<BashSandboxFacts>>();

/** One answer per call: preview, needsApproval and execute share the ToolContext. */
export function bashSandboxFacts(input: BashSandboxInput, ctx: ToolContext): Promise<BashSandboxFacts> {
  let found = facts.get(ctx);
  if (!found) {
    found = decide(input, ctx);
    facts.set(ctx, found);
  }
  return found;
}

async function decide(input: BashSandboxInput, ctx: ToolContext): Promise<BashSandboxFacts> {
  if (!ctx.sandbox) return { plan: { kind: 'unsandboxed', why: 'off' }, network: true, networkNeedsApproval: false };
  const plan = await ctx.sandbox.plan(input.unsandboxed === true);
  if (plan.kind !== 'sandboxed') return { plan, network: true, networkNeedsApproval: false };
  const listed = ctx.sandbox.networkAllow.length > 0 && (await onNetworkList(input, ctx));
  const asked = input.network === true;
  return { plan, network: asked || listed, networkNeedsApproval: asked && !listed };
}

async function onNetworkList(input: BashSandboxInput, ctx: ToolContext): Promise<boolean> {
  const cwd = await ctx.workspace.resolve(input.cwd ?? '.');
  const check = await checkCommand(input.command, { allow: ctx.sandbox?.networkAllow ?? [], deny: [] }, { cwd, workspace: ctx.workspace });
  return check.allowed;
}
