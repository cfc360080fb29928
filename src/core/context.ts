import { homedir } from 'node:os';
import type { Host } from './host';
import { LlmsContext } from './llmsContext/llmsContext';
import { keelHome, projectDir, sessionsDir, workspaceKey } from './paths';
import { resolveConfig, userConfigPath, workspaceConfigPath } from './config/loadConfig';
import { mergeLayers } from './config/loadConfig';
import type { ConfigLayer, KeelConfig } from './config/configSchema';
import { McpManager } from './mcp/mcpManager';
import type { ParsedMcpConfig } from './mcp/mcpConfig';
import { ModelRegistry } from './model/modelRegistry';
import type { ProviderFactory } from './model/modelRegistry';
import { PluginManager } from './plugins/pluginManager';
import { CommandSandbox } from './sandbox/commandSandbox';
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
  /** Layers applied after the user's and the workspace's config files (host settings, CLI flags). */
  overrides?: ConfigLayer[];
  workspaceTrusted?: boolean;
  plugins?: KeelPlugin[];
  /** Keys from the host's secret storage, by provider name. */
  apiKeys?: Record<string, string | undefined>;
  providerFactories?: ProviderFactory[];
  /** MCP servers for a Context that runs them itself (the CLI); stopped by destroy(). */
  mcpServers?: ParsedMcpConfig;
  /** A manager the host keeps across rebuilds of its Context (VS Code); destroy() leaves it running. */
  mcp?: McpManager;
  /** Finds the OS sandbox (default: probe this machine); tests inject one that finds none. */
  detectSandbox?: () => Promise<SandboxDetection>;
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

  private constructor(init: {
    config: KeelConfig;
    workspace: Workspace;
    paths: KeelPaths;
    plugins: PluginManager;
    models: ModelRegistry;
    sessions: SessionStore;
    host: Host;
    workspaceTrusted: boolean;
    warnings: string[];
    mcp: McpManager;
    ownsMcp: boolean;
    sandbox: CommandSandbox;
  }) {
    this.sandbox = init.sandbox;
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
    this.llmsContext = new LlmsContext({ workspace: init.workspace, host: init.host, home: init.paths.home });
  }

  static async create(opts: ContextOptions): Promise<Context> {
    const env = opts.env ?? process.env;
    const trusted = opts.workspaceTrusted ?? true;
    const workspace = await Workspace.create(opts.folders, { workspaceFile: opts.workspaceFile });
    const home = keelHome(env);
    const key = workspaceKey({ root: workspace.root, workspaceFile: opts.workspaceFile });
    const paths: KeelPaths = { home, workspaceKey: key, projectDir: projectDir(home, key), sessionsDir: sessionsDir(home, key) };

    const plugins = new PluginManager({
      log: (level, message) => opts.host.log(level, message),
      plugins: opts.plugins,
    });
    // Plugin config sits between the files and the host's explicit settings.
    const files = resolveConfig({
      userFile: userConfigPath(home),
      workspaceFile: workspaceConfigPath(workspace.root),
      workspaceTrusted: trusted,
    });
    const pluginLayer = await plugins.apply<ConfigLayer>({ hook: 'config', memo: {}, type: 'SeriesMerge' });
    let config = mergeLayers(files.config, pluginLayer);
    for (const layer of opts.overrides ?? []) config = mergeLayers(config, layer);
    const aliases = await plugins.apply<Record<string, string>>({ hook: 'modelAlias', memo: {}, type: 'SeriesMerge' });
    config = { ...config, modelAliases: { ...aliases, ...config.modelAliases } };
    const pluginProviders = await plugins.apply<ProviderFactory[]>({ hook: 'provider', memo: [], type: 'SeriesMerge' });

    const models = new ModelRegistry({
      config,
      env,
      apiKeys: opts.apiKeys,
      factories: [...(opts.providerFactories ?? []), ...pluginProviders],
    });
    const sessions = new SessionStore({
      home,
      workspace: { root: workspace.root, workspaceFile: opts.workspaceFile },
      onWarning: (message) => opts.host.log('warn', message),
    });
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
      });
    mcp.setSandbox((cwd) => sandbox.serverStart(cwd, (message) => opts.host.log('warn', message)));
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
      warnings: files.warnings,
      sandbox,
    });
    for (const w of files.warnings) opts.host.log('warn', w);
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
