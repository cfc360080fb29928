export const sandboxModes = ['auto', 'on', 'off'] as const;
/** `auto`: sandbox where one exists; `on`: refuse commands without one; `off`: never (person's layers only). */
export type SandboxMode = (typeof sandboxModes)[number];

/** A path the sandbox treats specially, and whether it is a folder or a file. */
export interface LayoutPath {
  path: string;
  kind: 'dir' | 'file';
}

/**
 * What a sandboxed process may see and change, as absolute real paths. Everything not
 * listed is visible and read-only.
 */
export interface SandboxLayout {
  /** Writable trees (the workspace folders, and for MCP servers their caches). */
  writable: string[];
  /** Existing protected paths inside the writable trees: mounted read-only. */
  readOnly: string[];
  /**
   * Protected paths that do not exist yet: held by an empty read-only placeholder for the
   * run so they cannot be created (bubblewrap); Seatbelt denies them by rule instead.
   */
  missing: LayoutPath[];
  /** Secrets: replaced by something empty. */
  hidden: LayoutPath[];
  /** Files a run must not leave behind, which no mount can block without breaking git (`.git/commondir`). */
  mustNotAppear: string[];
  /** Folders (any depth) whose protected names Seatbelt denies by pattern: the workspace folders. */
  patternRoots: string[];
  /** The `.git` folders found in the workspace folders. */
  gitDirs: string[];
  /**
   * Folders inside the writable trees that hold a protected path (`.git`, `pkg/` around
   * `pkg/.vscode`): kept writable but held in place, so they cannot be renamed or replaced.
   */
  heldParents: string[];
  /** What the run must be told about how it was confined (parts of the workspace left read-only, and why). */
  notes: string[];
  /** The folders of the writable workspace the protected-path walk looked into, and when it started (ms since the epoch). */
  scannedDirs: string[];
  scannedAt: number;
}

/** How a command or server is started inside the sandbox. */
export interface SandboxedStart {
  /** What goes before the command's own argv: the sandbox program and its arguments. */
  prefix: string[];
  /** The layout the run gets. */
  layout: SandboxLayout;
  /** Runs after the process exits: removes placeholders and anything it must not leave. Returns what it removed. */
  release(): Promise<string[]>;
  /**
   * Sentences for the command's result and the person: the layout's notes, and after
   * `release()` every protected path the run changed and how it was undone. Empty when there is nothing to say.
   */
  report: string[];
}

/**
 * A protection this sandbox does not give on this machine, and why, so the view and the CLI
 * can name it. `host-sockets`: a sandboxed command could connect to a host daemon's Unix
 * socket (no seccomp filter here).
 */
export interface SandboxWeakness {
  protection: 'host-sockets';
  reason: string;
}

export interface SandboxBackend {
  kind: 'bubblewrap' | 'seatbelt';
  /** What it cannot hold here (empty: every protection applies). */
  weaknesses: readonly SandboxWeakness[];
  /** Prepares a run in `cwd` under the layout. */
  wrap(layout: SandboxLayout, opts: WrapOptions): Promise<SandboxedStart>;
}

export interface WrapOptions {
  cwd: string;
  network: boolean;
  /** Paths the program runs from that must stay readable (an MCP server's script). */
  visible?: readonly string[];
  /**
   * A background command or a server: the folders holding protected paths are held in place for
   * the whole run. A short run's are watched and put back after it instead (bubblewrap: each
   * hold is a mount, and mounts are most of the sandbox's cost). Held for hours, the folders'
   * places would otherwise show the run's changes to the person's own tools meanwhile, and a
   * rename the person made meanwhile would be taken for the run's and undone.
   */
  longLived?: boolean;
}

export type SandboxDetection = { available: true; backend: SandboxBackend } | { available: false; reason: string };
