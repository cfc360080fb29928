import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errorMessage } from '../errors';
import { sha256 } from '../sha256';
import type { CommandSandbox } from '../sandbox/commandSandbox';
import { findShell } from '../tools/process/findShell';
import { hookFilePlaces, hookMatches, readHookFile } from './hookFiles';
import type { Hook, HookEvent } from './hookFiles';
import { runHook } from './hookRun';

/** Asks the person whether a hook their workspace ships may run (it runs only after a yes). */
export type HookApprover = (hook: Hook) => Promise<boolean>;

export interface HooksOptions {
  keelHome: string;
  userHome?: string;
  folders: readonly string[];
  /** Where hooks run: the current project's folder. */
  cwd: string;
  sandbox: CommandSandbox;
  /** The environment commands get (allow-listed, no secrets). */
  env(): NodeJS.ProcessEnv;
  /** Absent: workspace hooks never run (nobody to ask). */
  approve?: HookApprover;
  log(level: 'info' | 'warn', message: string): void;
}

/** What the hooks of one event said, together. */
export interface HooksVerdict {
  /** The first blocking hook's reason. */
  blocked?: string;
  /** Words the hooks add for the model, each under its source. */
  context: string[];
}

/** Claude Code's name for a Keel tool, so scripts written for it recognize the call. */
const claudeNames: Record<string, string> = { bash: 'Bash', edit: 'Edit', write: 'Write', read: 'Read', grep: 'Grep', glob: 'Glob', ls: 'LS', fetch: 'WebFetch', todo_write: 'TodoWrite', task: 'Task' };

/**
 * The hooks of the person's settings files and the workspace's (Claude Code's format), run at
 * Keel's events. The files are read again at each event, so an edit applies at once. A hook
 * from the workspace runs only once the person approved that exact hook (its file, event,
 * matcher and command: a change asks again); approvals are kept in `$KEEL_HOME`. Hooks only
 * block or add context: none of their answers approves a tool call.
 */
export class Hooks {
  private readonly declined = new Set<string>();
  private readonly asking = new Map<string, Promise<boolean>>();
  private readonly problemsSaid = new Set<string>();
  private shell: Promise<string | undefined> | undefined;

  constructor(private readonly opts: HooksOptions) {}

  /** Runs the event's hooks (those matching `toolName` for tool events) one after another. */
  async run(event: HookEvent, payload: Record<string, unknown>, signal: AbortSignal, toolName?: string): Promise<HooksVerdict> {
    const verdict: HooksVerdict = { context: [] };
    const hooks = (await this.load()).filter((h) => h.event === event && (toolName === undefined || hookMatches(h, toolName)));
    if (hooks.length === 0) return verdict;
    this.shell ??= findShell();
    const shell = await this.shell;
    if (!shell) {
      this.opts.log('warn', 'hooks: no shell found to run them');
      return verdict;
    }
    const input = {
      hook_event_name: event,
      cwd: this.opts.cwd,
      ...payload,
      ...(toolName ? { tool_name: claudeNames[toolName] ?? toolName, keel_tool_name: toolName } : {}),
    };
    for (const hook of hooks) {
      if (signal.aborted) break;
      if (hook.origin === 'workspace' && !(await this.approved(hook))) continue;
      const env = { ...this.opts.env(), CLAUDE_PROJECT_DIR: this.opts.cwd, KEEL_PROJECT_DIR: this.opts.cwd };
      const outcome = await runHook(hook, input, { shell, cwd: this.opts.cwd, env, sandbox: this.opts.sandbox, signal });
      if (outcome.failed) this.opts.log('warn', `hooks: ${event} hook of ${hook.source} (${hook.command.slice(0, 80)}) ${outcome.failed}`);
      if (outcome.context) verdict.context.push(`[${event} hook, ${hook.source}]\n${outcome.context}`);
      if (outcome.blocked) {
        verdict.blocked = outcome.blocked;
        break;
      }
    }
    return verdict;
  }

  private async load(): Promise<Hook[]> {
    const problems: string[] = [];
    const places = hookFilePlaces({ keelHome: this.opts.keelHome, ...(this.opts.userHome ? { userHome: this.opts.userHome } : {}), folders: this.opts.folders });
    const hooks = (await Promise.all(places.map((p) => readHookFile(p, problems)))).flat();
    for (const problem of problems) {
      if (this.problemsSaid.has(problem)) continue;
      this.problemsSaid.add(problem);
      this.opts.log('warn', `hooks: ${problem}`);
    }
    return hooks;
  }

  private async approved(hook: Hook): Promise<boolean> {
    const key = hookKey(hook, this.opts.folders);
    if (this.declined.has(key)) return false;
    if ((await this.approvals()).includes(key)) return true;
    if (!this.opts.approve) {
      this.declined.add(key);
      this.opts.log('warn', `hooks: the ${hook.event} hook of the workspace's ${hook.source} does not run: there is no one to approve it here`);
      return false;
    }
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.opts.approve(hook);
      this.asking.set(key, pending);
    }
    let yes: boolean;
    try {
      yes = await pending;
    } finally {
      this.asking.delete(key);
    }
    if (!yes) {
      this.declined.add(key);
      return false;
    }
    await this.remember(key);
    return true;
  }

  private approvalsFile(): string {
    return join(this.opts.keelHome, 'approved-hooks.json');
  }

  private async approvals(): Promise<string[]> {
    try {
      const value: unknown = JSON.parse(await readFile(this.approvalsFile(), 'utf8'));
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    } catch (err) {
      if (!(err instanceof Error && 'code' in err && err.code === 'ENOENT')) this.opts.log('warn', `hooks: could not read ${this.approvalsFile()}: ${errorMessage(err)}`);
      return [];
    }
  }

  private async remember(key: string): Promise<void> {
    const file = this.approvalsFile();
    const keys = [...new Set([...(await this.approvals()), key])];
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
    } catch (err) {
      this.opts.log('warn', `hooks: could not remember the approval in ${file}: ${errorMessage(err)}`);
    }
  }
}

/** A hook's identity for approval: its workspace, file, event, matcher and command (a change is a new hook). */
export function hookKey(hook: Hook, folders: readonly string[]): string {
  return sha256([folders.join('\n'), hook.source, hook.event, hook.matcher, hook.command].join('\0'));
}
