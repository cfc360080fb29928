import type { Elicitor } from './mcp/mcpElicitation';
import { approvedSampler } from './mcp/mcpSampling';
import { Hooks } from './hooks/hooks';
import type { HookApprover } from './hooks/hooks';
import { shellEnv } from './tools/process/shellEnv';
import { homedir } from 'node:os';
import { childEnvPolicy } from './env/childEnvPolicy';
import type { Host } from './host';
import { LlmsContext } from './llmsContext/llmsContext';
import { keelHome, projectDir, sessionsDir, workspaceKey } from './paths';
import type { WorkspaceIdentity } from './paths';
import type { Worktree } from './worktrees/gitWorktree';
import { resolveConfig, userConfigPath, workspaceConfigPath } from './config/loadConfig';
import type { ConfigLayer, KeelConfig } from './config/configSchema';
import type { WorkspaceLayer } from './config/workspaceNarrowing';
import type { PairedKey } from './model/keyOrigin';
import { McpManager } from './mcp/mcpManager';
import type { ParsedMcpConfig } from './mcp/mcpConfig';
import type { McpOAuthHost } from './mcp/mcpOAuthProvider';
import { ModelRegistry } from './model/modelRegistry';
import type { ProviderFactory } from './model/modelRegistry';
import { PluginManager } from './plugins/pluginManager';
import { CommandSandbox } from './sandbox/commandSandbox';
import { noteWritableFolder } from './git/gitProgram';
import { sweepPlaceholders } from './sandbox/placeholders';
import type { SandboxDetection } from './sandbox/sandboxTypes';
import type { KeelPlugin } from './plugins/pluginTypes';
import { SessionStore } from './session/sessionStore';
import { Workspace } from './workspace/workspace';

export interface ContextOptions {
  folders: { path: string; name?: string }[];
  /** The `.code-workspace` file of a multi-root workspace. */
  workspaceFile?: string;
  host: Host;
  env?: Record<string, string | undefined>;
  /** The person's layers, applied after the config files (user settings, CLI flags). */
  overrides?: ConfigLayer[];
  /** The workspace's layers from the host (its VS Code settings): they may only narrow. */
  workspaceOverrides?: WorkspaceLayer[];
  /**
   * Restricted Mode (VS Code's Workspace Trust): write, command and MCP tools are off. It does
   * not decide what the workspace's config may change: that is never more than narrowing.
   */
  workspaceTrusted?: boolean;
  plugins?: KeelPlugin[];
  /** Keys the person gave (secret storage, --api-key), by provider name, each with its origin. */
  apiKeys?: Record<string, PairedKey | undefined>;
  providerFactories?: ProviderFactory[];
  /** MCP servers for a Context that runs them itself (the CLI); stopped by destroy(). */
  mcpServers?: ParsedMcpConfig;
  /** Keel's version, reported to MCP servers (the CLI's; VS Code passes its own manager). */
  clientVersion?: string;
  /** Answers MCP servers' questions (elicitation) when Keel builds the MCP manager itself. */
  mcpElicit?: Elicitor;
  /** Signs in to HTTP MCP servers when Keel builds the manager itself (the CLI): a server that asks sends the person to sign in. */
  mcpOAuth?: McpOAuthHost;
  /** Approves MCP servers' sampling requests (they then run on the configured model); absent: servers cannot sample. */
  mcpApproveSampling?: Parameters<typeof approvedSampler>[0];
  /** Asks the person before a hook the workspace ships runs; absent: workspace hooks never run. */
  approveHook?: HookApprover;
  /** A manager the host keeps across rebuilds of its Context (VS Code); destroy() leaves it running. */
  mcp?: McpManager;
  /** Finds the OS sandbox (default: probe this machine); tests inject one that finds none. */
  detectSandbox?: () => Promise<SandboxDetection>;
  /**
   * The git worktree the folders are (a worktree conversation): its sessions stay with the
   * person's workspace (`sessionsOf`), listed and resumed there, while every path is the worktree's.
   */
  worktree?: { tree: Worktree; sessionsOf: WorkspaceIdentity };
}

export interface KeelPaths {
  home: string;
  workspaceKey: string;
  projectDir: string;
  sessionsDir: string;
}

/**
 * The dependency container, built once per workspace: resolved config, paths, plugins,
 * models and the session store. Everything else receives what it needs from here.
 */
export class Context {
  readonly config: KeelConfig;
  readonly workspace: Workspace;
  readonly paths: KeelPaths;
  readonly plugins: PluginManager;
  readonly models: ModelRegistry;
  readonly sessions: SessionStore;
  readonly host: Host;
  readonly workspaceTrusted: boolean;
  /** The workspace's MCP servers: their state, tools and prompts. */
  readonly mcp: McpManager;
  private readonly ownsMcp: boolean;
  /**
   * What the model is told about the workspace with each request, cached across requests.
   * Hosts with a file watcher call `llmsContext.invalidate()` when files change outside Keel.
   */
  readonly llmsContext: LlmsContext;
  /** Problems worth showing that did not stop Keel (ignored settings, skipped plugins). */
  readonly warnings: string[];
  /** The OS sandbox commands and local MCP servers run in. */
  readonly sandbox: CommandSandbox;
  /** The git worktree this Context is rooted in, when it is a worktree conversation's. */
  worktree?: Worktree;
  /** The person's and the workspace's hooks (Claude Code's settings format), run at Keel's events; none in an untrusted workspace. */
  readonly hooks: Hooks | undefined;

  private constructor(init: {
    config: KeelConfig;
    workspace: Workspace;
    paths: KeelPaths;
    plugins: PluginManager;
    models: ModelRegistry;
    sessions: SessionStore;
    host: Host;
    workspaceTrusted: boolean;
    /** The person's home folder (`~/.claude/skills`): `HOME` of the environment given, so tests stay hermetic. */
    userHome?: string;
    warnings: string[];
    mcp: McpManager;
    ownsMcp: boolean;
    sandbox: CommandSandbox;
    hooks: Hooks | undefined;
  }) {
    this.sandbox = init.sandbox;
    this.hooks = init.hooks;
    this.mcp = init.mcp;
    this.ownsMcp = init.ownsMcp;
    this.config = init.config;
    this.workspace = init.workspace;
    this.paths = init.paths;
    this.plugins = init.plugins;
    this.models = init.models;
    this.sessions = init.sessions;
    this.host = init.host;
    this.workspaceTrusted = init.workspaceTrusted;
    this.warnings = init.warnings;
    this.llmsContext = new LlmsContext({ workspace: init.workspace, host: init.host, home: init.paths.home, ...(init.userHome ? { userHome: init.userHome } : {}) });
  }

  static async create(opts: ContextOptions): Promise<Context> {
    const env = opts.env ?? process.env;
    // Trust only gates tools here (the CLI has no Restricted Mode); workspace config is narrowed either way.
    const trusted = opts.workspaceTrusted ?? true;
    const workspace = await Workspace.create(opts.folders, { workspaceFile: opts.workspaceFile });
    const home = keelHome(env);
    const sessionsOf = opts.worktree?.sessionsOf ?? { root: workspace.root, workspaceFile: opts.workspaceFile };
    const key = workspaceKey(sessionsOf);
    const paths: KeelPaths = { home, workspaceKey: key, projectDir: projectDir(home, key), sessionsDir: sessionsDir(home, key) };

    const plugins = new PluginManager({
      log: (level, message) => opts.host.log(level, message),
      plugins: opts.plugins,
    });
    // Plugin config sits between the files and the host's explicit settings; plugin aliases under everything.
    const pluginLayer = await plugins.apply<ConfigLayer>({ hook: 'config', memo: {}, type: 'SeriesMerge' });
    const aliases = await plugins.apply<Record<string, string>>({ hook: 'modelAlias', memo: {}, type: 'SeriesMerge' });
    const pluginProviders = await plugins.apply<ProviderFactory[]>({ hook: 'provider', memo: [], type: 'SeriesMerge' });
    const factories = [...(opts.providerFactories ?? []), ...pluginProviders];
    const resolved = resolveConfig({
      userFile: userConfigPath(home),
      workspaceFile: workspaceConfigPath(workspace.root),
      baseAliases: aliases,
      overrides: [pluginLayer, ...(opts.overrides ?? [])],
      workspaceOverrides: opts.workspaceOverrides,
      keyProviders: Object.entries(opts.apiKeys ?? {}).flatMap(([name, paired]) => (paired?.key ? [name] : [])),
      sources: factories.map((f) => f.name),
    });
    const { config } = resolved;

    const models = new ModelRegistry({
      config,
      personal: resolved.personal,
      env,
      apiKeys: opts.apiKeys,
      factories,
    });
    const sessions = new SessionStore({
      home,
      workspace: sessionsOf,
      onWarning: (message) => opts.host.log('warn', message),
    });
    // Commands write here: Keel's own git never runs a `git` found in these folders.
    for (const f of workspace.folders) noteWritableFolder(f.path);
    const sandbox = new CommandSandbox({
      mode: config.sandbox,
      folders: workspace.folders.map((f) => f.path),
      home: env.HOME ?? homedir(),
      keelHome: home,
      networkAllow: config.sandboxNetwork,
      detect: opts.detectSandbox,
    });
    const mcp =
      opts.mcp ??
      new McpManager({
        workspaceRoot: workspace.root,
        env,
        trusted,
        log: (level, message) => opts.host.log(level, message),
        version: opts.clientVersion,
        roots: workspace.folders.map((f) => f.path),
        ...(opts.mcpElicit ? { elicit: opts.mcpElicit } : {}),
        ...(opts.mcpOAuth ? { oauth: opts.mcpOAuth, signInWhenAsked: true } : {}),
        ...(opts.mcpApproveSampling ? { sample: approvedSampler(opts.mcpApproveSampling, () => models.resolve('model')) } : {}),
      });
    mcp.setSandbox((cwd, visible) => sandbox.serverStart(cwd, (message) => opts.host.log('warn', message), visible), childEnvPolicy(config));
    mcp.setToolTimeout(config.mcpToolTimeout * 1000);
    if (!opts.mcp && opts.mcpServers) mcp.setServers(opts.mcpServers.servers, opts.mcpServers.problems);
    const ctx = new Context({
      mcp,
      ownsMcp: !opts.mcp,
      config,
      workspace,
      paths,
      plugins,
      models,
      sessions,
      host: opts.host,
      workspaceTrusted: trusted,
      ...(env.HOME ? { userHome: env.HOME } : {}),
      warnings: resolved.warnings,
      sandbox,
      // Hooks are commands: none run where commands do not (an untrusted workspace).
      hooks: trusted
        ? new Hooks({
            keelHome: home,
            ...(env.HOME ? { userHome: env.HOME } : {}),
            folders: workspace.folders.map((f) => f.path),
            cwd: workspace.root,
            sandbox,
            env: () => shellEnv(childEnvPolicy(config), env),
            ...(opts.approveHook ? { approve: opts.approveHook } : {}),
            log: (level, message) => opts.host.log(level, message),
          })
        : undefined,
    });
    if (opts.worktree) ctx.worktree = opts.worktree.tree;
    for (const w of resolved.warnings) opts.host.log('warn', w);
    await plugins.apply({ hook: 'initialized', memo: undefined, type: 'Series' });
    return ctx;
  }

  async destroy(): Promise<void> {
    await this.plugins.apply({ hook: 'destroy', memo: [], type: 'Parallel' });
    if (this.ownsMcp) await this.mcp.dispose();
    // Placeholders for missing protected paths linger briefly between commands; none outlive Keel.
    await sweepPlaceholders();
  }
}
