import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { detectSandbox } from './detectSandbox';
import { sandboxShortfall } from './missingProtections';
import type { SandboxShortfall } from './missingProtections';
import { heldParents } from './heldParents';
import { gitFolders, newRepositoriesNote } from './newRepositories';
import { sandboxLayout } from './sandboxLayout';
import type { SandboxDetection, SandboxMode, SandboxedStart } from './sandboxTypes';

export interface CommandSandboxOptions {
  mode: SandboxMode;
  /** Workspace folders (real paths): writable except their protected paths. */
  folders: string[];
  home: string;
  keelHome: string;
  /** Command prefixes that get the network without asking (the person's `sandboxNetwork`). */
  networkAllow?: readonly string[];
  /** Finds the OS sandbox; tests inject one that finds none. */
  detect?: () => Promise<SandboxDetection>;
}

/** How a command will run, decided before it is approved. */
export type SandboxPlan =
  | { kind: 'sandboxed' }
  | { kind: 'unsandboxed'; why: 'off' | 'asked' | 'unavailable'; reason?: string }
  | { kind: 'refused'; reason: string };

export interface StartOptions {
  cwd: string;
  network: boolean;
  /** Writable besides the workspace (MCP servers' package caches). */
  extraWritable?: string[];
  /**
   * Hold missing protected paths with placeholders (default true). A long-lived server
   * would keep them in the person's workspace for hours; its calls are checked instead.
   */
  holdMissing?: boolean;
  /** Paths the program runs from that must stay readable under the sandbox's empty /tmp. */
  visible?: readonly string[];
  /**
   * Nothing of the workspace is writable (a command run because an allow rule matched, in
   * manual mode): only the sandbox's private /tmp is. No placeholders are needed then.
   */
  readOnlyWorkspace?: boolean;
  /**
   * A background command or a server: the folders holding protected paths are held in place
   * for the whole run rather than put back after it (see `WrapOptions.longLived`).
   */
  longLived?: boolean;
}

/**
 * The OS sandbox as commands and local MCP servers of one workspace use it: the setting,
 * what was found on this machine, and the layout each run gets.
 */
export class CommandSandbox {
  readonly mode: SandboxMode;
  readonly networkAllow: readonly string[];
  private readonly told = new WeakSet<object>();
  /** Repositories already seen or reported (the layout is cached and may predate the last run). */
  private readonly knownRepositories = new Set<string>();

  constructor(private readonly opts: CommandSandboxOptions) {
    this.mode = opts.mode;
    this.networkAllow = opts.networkAllow ?? [];
  }

  detection(): Promise<SandboxDetection> {
    return (this.opts.detect ?? detectSandbox)();
  }

  /** Which protections commands run without here (setting off, no sandbox, a partial one). */
  async shortfall(): Promise<SandboxShortfall> {
    return sandboxShortfall(this.mode, await this.detection());
  }

  /** How a command runs: `unsandboxed` is the model's request to run outside (the person decides). */
  async plan(unsandboxed: boolean): Promise<SandboxPlan> {
    if (this.mode === 'off') return { kind: 'unsandboxed', why: 'off' };
    const found = await this.detection();
    if (!found.available) {
      if (this.mode === 'on') {
        return { kind: 'refused', reason: `The setting sandbox is "on" but no OS sandbox is available (${found.reason}); commands are refused.` };
      }
      return { kind: 'unsandboxed', why: 'unavailable', reason: found.reason };
    }
    return unsandboxed ? { kind: 'unsandboxed', why: 'asked' } : { kind: 'sandboxed' };
  }

  /**
   * The once-per-conversation notice that commands run without a sandbox here; `key` is
   * an object that lives as long as the conversation.
   */
  unavailableNotice(key: object, reason: string): string | undefined {
    if (this.told.has(key)) return undefined;
    this.told.add(key);
    return `Note: commands run without an OS sandbox here (${reason}); the setting sandbox is "auto", so they run unconfined.`;
  }

  /**
   * After a sandboxed command: what to tell about git repositories it created in
   * subfolders, which no placeholder can hold. Undefined when there are none.
   */
  async newRepositories(start: SandboxedStart, display: (path: string) => string): Promise<string | undefined> {
    const before = new Set([...start.layout.gitDirs, ...this.knownRepositories]);
    const after = await gitFolders(start.layout.patternRoots);
    for (const path of after) this.knownRepositories.add(path);
    return newRepositoriesNote(before, after, display);
  }

  /** Prepares a sandboxed run; throws when no sandbox is available (plan() said so first). */
  async start(opts: StartOptions): Promise<SandboxedStart> {
    const found = await this.detection();
    if (!found.available) throw new Error(`No OS sandbox is available: ${found.reason}`);
    const layout = await sandboxLayout({
      folders: this.opts.folders,
      home: this.opts.home,
      keelHome: this.opts.keelHome,
      extraWritable: opts.extraWritable,
      uid: process.getuid?.(),
      runtimeDir: process.env.XDG_RUNTIME_DIR,
    });
    const used = opts.readOnlyWorkspace
      ? // Bound read-only rather than dropped: a workspace under /tmp would vanish behind the private /tmp.
        // Nothing is writable, so no folder needs holding and nothing can appear.
        { ...layout, writable: [], readOnly: [...layout.writable, ...layout.readOnly], missing: [], heldParents: [], scannedDirs: [] }
      : // Without placeholders (a server living for hours), the folders made for them (`.github` for
        // `.github/instructions`) are not there to hold either, and what appears is not looked for
        // afterwards: the person's own edits of those hours would be taken for the server's. The
        // server's calls that name a protected path ask instead.
        opts.holdMissing === false
        ? { ...layout, missing: [], heldParents: heldParents(layout.writable, layout.readOnly), scannedDirs: [] }
        : layout;
    return found.backend.wrap(used, { cwd: opts.cwd, network: opts.network, visible: opts.visible, longLived: opts.longLived });
  }

  /**
   * How a local MCP server starts: in the sandbox with the network (its configuration
   * needs it) and its package caches writable (`npx` and `uvx` install there); undefined
   * when it runs without one (said in the log); throws when it must not run.
   */
  async serverStart(cwd: string, log: (message: string) => void, visible: readonly string[] = []): Promise<SandboxedStart | undefined> {
    const plan = await this.plan(false);
    if (plan.kind === 'refused') throw new Error(plan.reason.replace('commands are refused', 'local MCP servers are not started'));
    if (plan.kind === 'unsandboxed') {
      if (plan.why === 'unavailable') log(`MCP servers run without an OS sandbox here: ${plan.reason ?? 'none available'}`);
      return undefined;
    }
    const caches = [];
    for (const dir of ['.npm', '.cache', '.local/share/uv']) {
      const path = join(this.opts.home, dir);
      if (await isFolder(path)) caches.push(path);
    }
    return this.start({ cwd, network: true, extraWritable: caches, holdMissing: false, visible, longLived: true });
  }
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return false;
    throw err;
  }
}
