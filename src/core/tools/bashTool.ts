import { stat } from 'node:fs/promises';
import * as z from 'zod';
import { bashApprovalHint, commandCheck } from './bashApproval';
import { startBackground } from './bashBackground';
import { bashSandboxFacts } from './bashSandbox';
import type { BashSandboxFacts } from './bashSandbox';
import { sandboxFailureNote } from '../sandbox/sandboxFailure';
import type { SandboxedStart } from '../sandbox/sandboxTypes';
import { findShell } from './process/findShell';
import { runShell, type ShellRun } from './process/runShell';
import { childEnv, noExtraEnv } from '../env/childEnv';
import { commandEnvSettings, shellEnv } from './process/shellEnv';
import { describeTerminalRun } from './process/terminalRunReport';
import { defineTool, errorResult, textResult, type ToolContext, type ToolResult } from './tool';
import { expectedFailure } from './toolFailure';
import { keyArgument } from './toolPresentation';

export const bashDefaultTimeoutMs = 120_000;
export const bashMaxTimeoutMs = 600_000;
export const bashMaxOutputChars = 30_000;

const inputSchema = z.object({
  command: z.string().min(1).describe('The command line to run with bash -c.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(bashMaxTimeoutMs)
    .optional()
    .describe(
      `Milliseconds before the command is killed (default ${bashDefaultTimeoutMs}; a background command runs until killed unless this is given).`,
    ),
  cwd: z.string().min(1).optional().describe('Working folder inside the workspace (default: the current project).'),
  description: z.string().optional().describe('A few words on what it does, shown to the person.'),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Keep it running in the background (a dev server, a watcher): returns at once with a job id and its first output; read more with bash_output, stop it with kill_bash.'),
  network: z
    .boolean()
    .optional()
    .describe('It needs the network (package installs, git fetch); the person approves it.'),
  writable: z
    .boolean()
    .optional()
    .describe(
      'In manual mode a command allowed by a rule (not by the person) gets a read-only workspace; set this only after ' +
        'such a command failed for want of writing: the person is asked.',
    ),
  unsandboxed: z
    .boolean()
    .optional()
    .describe(
      "Run outside the sandbox; only after a command failed because of it and cannot be done inside. The person approves every such call.",
    ),
});

export type BashInput = z.infer<typeof inputSchema>;

export const bashTool = defineTool<BashInput>({
  name: 'bash',
  description:
    'Runs bash -c in the workspace; returns combined stdout/stderr and the exit code. Avoid interactive commands ' +
    '(no one can answer them; pagers are off). The command and all it starts are killed on timeout or cancel. Long ' +
    'output keeps its beginning and end. Use read, grep, glob and edit rather than cat, grep, find and sed. Where an ' +
    'OS sandbox exists, the workspace is writable except protected paths (.git internals, .vscode, .keel, rules files), ' +
    'the rest is read-only, secrets are hidden and there is no network unless you set network.',
  category: 'command',
  present: (input) => ({ title: 'bash', summary: keyArgument(input, 'bash'), icon: 'terminal', details: { kind: 'command', command: input.command, ...(input.cwd ? { cwd: input.cwd } : {}), ...(input.description ? { description: input.description } : {}), ...(input.run_in_background ? { background: true } : {}) } }),
  inputSchema,
  async preview(input, ctx) {
    const cwd = await ctx.workspace.resolve(input.cwd ?? '.');
    const firstLine = input.command.split('\n')[0];
    const summary = firstLine.length < input.command.length ? `${firstLine} …` : firstLine;
    // Files it writes through redirections count too: `> .vscode/settings.json` is a protected path.
    const check = await commandCheck(input, ctx);
    const sandbox = await bashSandboxFacts(input, ctx);
    // Refused before anyone is asked: with the setting "on" and no sandbox, nothing runs.
    if (sandbox.plan.kind === 'refused') throw new Error(sandbox.plan.reason);
    const notes = [
      input.run_in_background ? 'in the background' : undefined,
      sandbox.networkNeedsApproval ? 'with network' : undefined,
      input.writable === true && sandbox.plan.kind === 'sandboxed' ? 'with write access' : undefined,
      sandbox.plan.kind === 'unsandboxed' && sandbox.plan.why === 'asked' ? 'outside the sandbox' : undefined,
    ].filter(Boolean);
    return { summary: notes.length > 0 ? `${summary} (${notes.join(', ')})` : summary, paths: [cwd, ...check.writesInside] };
  },
  needsApproval: (input, ctx) => bashApprovalHint(input, ctx),
  async execute(input, ctx) {
    try {
      return await runBash(input, ctx);
    } catch (err) {
      return expectedFailure(err);
    }
  },
});

async function runBash(input: BashInput, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.approval && !ctx.approval.approved) return errorResult('The command was not approved; nothing was run.');
  if (ctx.signal.aborted) return errorResult('Cancelled before the command started.');
  const cwd = await ctx.workspace.resolve(input.cwd ?? '.');
  const info = await stat(cwd);
  if (!info.isDirectory()) return errorResult(`cwd ${ctx.workspace.display(cwd)} is not a folder.`);
  const shell = await findShell();
  if (!shell) return errorResult('No shell found: bash or sh must be installed and on PATH to run commands.');
  const sandbox = await bashSandboxFacts(input, ctx);
  if (sandbox.plan.kind === 'refused') return errorResult(sandbox.plan.reason);
  const notice = unsandboxedNotice(sandbox, ctx);
  // Allowed by a rule alone (manual mode): an allow rule allows reading.
  const readOnlyWorkspace = ctx.approval?.readOnlyWorkspace === true;
  const started =
    sandbox.plan.kind === 'sandboxed' && ctx.sandbox ? await ctx.sandbox.start({ cwd, network: sandbox.network, readOnlyWorkspace, longLived: input.run_in_background === true }) : undefined;
  const sandboxed = started !== undefined;
  if (input.run_in_background) {
    const release = started ? releaseOnce(started, ctx) : undefined;
    const result = await startBackground({ shell, command: input.command, cwd, timeoutMs: input.timeout, prefix: started?.prefix, onExit: release }, ctx);
    return withNotice({ ...result, sandboxed }, notice);
  }
  let result: ToolResult;
  // Snapshots are taken here, in Keel's process and outside the sandbox, around the whole run
  // (the sandbox's own cleanup included), so what the command changed can be undone.
  const bracket = await ctx.snapshots?.begin();
  try {
    result = await runForeground(input, ctx, shell, cwd, started?.prefix);
  } finally {
    try {
      if (started) {
        const removed = await started.release();
        if (removed.length > 0) notice.push(`The sandbox removed ${removed.map((p) => ctx.workspace.display(p)).join(', ')}, which the command created (it would redirect git).`);
        // How it was confined (read-only parts) and what of the protected paths it changed, undone.
        for (const line of started.report) ctx.host.log('warn', `bash: ${line}`);
        notice.push(...started.report);
      }
    } finally {
      await bracket?.end();
    }
  }
  if (sandboxed && result.isError !== true && typeof result.output === 'string' && !/\nExit code: 0$/.test(result.output)) {
    const note = sandboxFailureNote(result.output, sandbox.network, readOnlyWorkspace);
    if (note) result = { ...result, output: `${result.output}\n\n${note}` };
  }
  if (started && typeof result.output === 'string') {
    // Nothing holds a missing .git in a subfolder: say plainly when one appeared.
    const repos = await ctx.sandbox?.newRepositories(started, (p) => ctx.workspace.display(p));
    if (repos) {
      ctx.host.log('warn', `bash: ${repos}`);
      result = { ...result, output: `${result.output}\n\n${repos}` };
    }
  }
  return withNotice({ ...result, sandboxed }, notice);
}

/** The once-per-conversation word that commands run unconfined here (setting "auto", no sandbox found). */
function unsandboxedNotice(sandbox: BashSandboxFacts, ctx: ToolContext): string[] {
  if (sandbox.plan.kind !== 'unsandboxed' || sandbox.plan.why !== 'unavailable' || !ctx.sandbox) return [];
  const notice = ctx.sandbox.unavailableNotice(ctx.reads, sandbox.plan.reason ?? 'none found');
  if (notice) ctx.host.log('warn', `bash: ${notice}`);
  return notice ? [notice] : [];
}

function withNotice(result: ToolResult, notice: string[]): ToolResult {
  if (notice.length === 0 || typeof result.output !== 'string') return result;
  return { ...result, output: `${notice.join('\n')}\n\n${result.output}` };
}

function releaseOnce(started: SandboxedStart, ctx: ToolContext): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    started.release().then(
      (removed) => {
        removed.forEach((p) => ctx.host.log('warn', `bash: removed ${p}, which a background command created in the sandbox`));
        started.report.forEach((line) => ctx.host.log('warn', `bash (background command): ${line}`));
      },
      (err: unknown) => ctx.host.log('error', `bash: sandbox cleanup failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  };
}

async function runForeground(input: BashInput, ctx: ToolContext, shell: string, cwd: string, prefix: string[] | undefined): Promise<ToolResult> {
  const timeoutMs = input.timeout ?? bashDefaultTimeoutMs;
  let fallback: string | undefined;
  if (ctx.host.runInTerminal) {
    const inTerminal = await ctx.host.runInTerminal({
      shell,
      command: input.command,
      cwd,
      timeoutMs,
      signal: ctx.signal,
      maxOutputChars: bashMaxOutputChars,
      onOutput: ctx.onOutput,
      prefix,
      env: { names: Object.keys(childEnv(process.env, ctx.envPolicy ?? noExtraEnv)), set: commandEnvSettings },
    });
    if (inTerminal.ran) return describeTerminalRun(inTerminal, timeoutMs);
    fallback = `Not run in the terminal (${inTerminal.reason}); ran as a child process instead.`;
    ctx.host.log('warn', `bash: ${fallback}`);
    if (ctx.signal.aborted) return errorResult('Cancelled before the command started.');
  }
  const run = await runShell({
    shell,
    command: input.command,
    cwd,
    env: shellEnv(ctx.envPolicy),
    timeoutMs,
    signal: ctx.signal,
    maxOutputChars: bashMaxOutputChars,
    onOutput: ctx.onOutput,
    onError: (err) => ctx.host.log('error', `Could not stop command: ${err.message}`),
    prefix,
  });
  return describeRun(run, timeoutMs, fallback);
}

function describeRun(run: ShellRun, timeoutMs: number, fallback?: string): ToolResult {
  const output = run.output === '' ? '(no output)' : run.output.replace(/\n$/, '');
  const parts = fallback ? [fallback, output] : [output];
  if (run.detachedOutput) {
    parts.push('(A background process started by the command still holds its output; later output is not captured.)');
  }
  if (run.timedOut) {
    parts.push(`Timed out after ${timeoutMs} ms; the command and the processes it started were killed.`);
    return errorResult(parts.join('\n\n'));
  }
  if (run.cancelled) {
    parts.push('Cancelled; the command and the processes it started were killed.');
    return errorResult(parts.join('\n\n'));
  }
  parts.push(run.exitCode !== null ? `Exit code: ${run.exitCode}` : `Killed by signal ${run.signal ?? 'unknown'}.`);
  return textResult(parts.join('\n\n'));
}
