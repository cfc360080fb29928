import * as l10n from '@vscode/l10n';
import { mergeLayers, resolveConfig, userConfigPath, workspaceConfigPath } from '../../core/config';
import { CUSTOM_PROVIDER } from '../../core/config';
import { Context } from '../../core/context';
import type { ContextOptions } from '../../core/context';
import { KeelError, errorMessage } from '../../core/errors';
import type { Host } from '../../core/host';
import { keelHome } from '../../core/paths';
import type { McpManager } from '../../core/mcp';
import type { KeelPlugin } from '../../core/plugins';
import type { ProviderFactory } from '../../core/model';
import { LM_PROVIDER } from '../settings/lmProviderName';
import type { LogFn } from '../../protocol/log';
import type { SettingsRead } from '../settings/settingsLayer';
import { personalSettingsLayer, settingsLayer, workspaceSettingsLayers } from '../settings/settingsLayer';
import { providerOrigin } from '../../core/model';
import { isPresetName, presetNames } from '../../core/model';
import type { PairedKey } from '../../core/model';

/** What building the core needs from the editor, read fresh on every build. */
export interface CoreInputs {
  /** Local workspace folders (file scheme). */
  folders(): { path: string; name: string }[];
  /** The `.code-workspace` file of a saved multi-root workspace. */
  workspaceFile(): string | undefined;
  trusted(): boolean;
  settings(): SettingsRead;
  /** The key the person stored for this provider and origin (never one stored for another origin). */
  apiKey(provider: string, origin: string): Promise<string | undefined>;
  plugins(): KeelPlugin[];
  /** Model sources of the editor itself (VS Code's language models), read fresh on every build. */
  providerFactories?(): Promise<ProviderFactory[]>;
  host: Host;
  env: Record<string, string | undefined>;
  /** The window's MCP servers, kept running across rebuilds. */
  mcp?(): McpManager;
  /** For a worktree conversation's core: the worktree, and the workspace its sessions belong to. */
  worktree?(): NonNullable<ContextOptions['worktree']>;
  /** Asks the person before a hook the workspace ships runs. */
  approveHook?: ContextOptions['approveHook'];
}

export interface BuiltCore {
  ctx: Context;
  /** Settings that were ignored (the workspace's that would widen, invalid values), in words for the person. */
  problems: string[];
  /** Key values in use, so error text can be scrubbed of them. */
  secrets: string[];
  /** The plugins it was built with. */
  plugins: KeelPlugin[];
  /** The provider the settings point models at (a preset, `custom` for a base URL, else `openai`). */
  provider?: string;
}

/** A core a run works with: it is neither replaced nor shut down until `release()`. */
export interface HeldCore {
  built: BuiltCore;
  release(): void;
}

/**
 * Builds the core (Context) on first use and again after the settings, keys, trust or
 * folders changed, but never while a run holds it (`hold()`): until the run ends, callers get
 * the Context the run started with, and a Context is shut down only when no run holds it.
 */
export class CoreLoader {
  private current: BuiltCore | undefined;
  /** Runs holding each core, by core. */
  private readonly holds = new Map<BuiltCore, number>();
  /** The build in flight, and the invalidation count it started from. */
  private building: { promise: Promise<BuiltCore>; generation: number } | undefined;
  private stale = false;
  /** Counts invalidations: a build that started before the latest one is out of date. */
  private generation = 0;

  constructor(
    private readonly inputs: CoreInputs,
    private readonly log: LogFn,
  ) {}

  get(): Promise<BuiltCore> {
    if (this.current && (!this.stale || this.holds.has(this.current))) return Promise.resolve(this.current);
    if (this.building?.generation === this.generation) return this.building.promise;
    // A build that started before the latest change read the old settings: build again after it.
    const previous = this.building?.promise.then(
      () => undefined,
      () => undefined,
    );
    const generation = this.generation;
    const promise: Promise<BuiltCore> = (previous ?? Promise.resolve()).then(() => this.build(generation)).finally(() => {
      if (this.building?.promise === promise) this.building = undefined;
    });
    this.building = { promise, generation };
    return promise;
  }

  /** The core for a run, kept as it is until the run releases it. */
  async hold(): Promise<HeldCore> {
    for (;;) {
      const built = await this.get();
      // A newer core took its place meanwhile (the old one is being shut down): take that one.
      if (built !== this.current) continue;
      this.holds.set(built, (this.holds.get(built) ?? 0) + 1);
      let released = false;
      return {
        built,
        release: () => {
          if (released) return;
          released = true;
          const left = (this.holds.get(built) ?? 1) - 1;
          if (left > 0) this.holds.set(built, left);
          else {
            this.holds.delete(built);
            if (built !== this.current) this.shutDown(built);
          }
        },
      };
    }
  }

  /** The core as last built, without building. */
  peek(): BuiltCore | undefined {
    return this.current;
  }

  isStale(): boolean {
    return this.stale || this.current === undefined;
  }

  /** The next `get()` (once no run is going) builds a new Context. */
  invalidate(reason: string): void {
    this.log('debug', `core: rebuild pending (${reason})`);
    this.stale = true;
    this.generation++;
  }

  async dispose(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (current) await current.ctx.destroy();
  }

  /** `generation`: the invalidations this build has seen; the core stays stale until one that saw them all is done. */
  private async build(generation: number): Promise<BuiltCore> {
    const old = this.current;
    try {
      const built = await this.create();
      this.current = built;
      if (generation === this.generation) this.stale = false;
      return built;
    } catch (err) {
      // Broken settings must not leave the previous endpoint in use.
      this.current = undefined;
      throw err;
    } finally {
      // One a run still holds is shut down when the run releases it.
      if (old && !this.holds.has(old)) this.shutDown(old);
    }
  }

  private shutDown(old: BuiltCore): void {
    old.ctx.destroy().catch((err: unknown) => this.log('warn', `core: shutting down the previous context failed: ${errorMessage(err)}`));
  }

  private async create(): Promise<BuiltCore> {
    const started = Date.now();
    const { inputs } = this;
    const folders = inputs.folders();
    if (folders.length === 0) {
      throw new KeelError('config', l10n.t('Keel works on the files of a folder: open a folder or a workspace first.'));
    }
    const trusted = inputs.trusted();
    const read = inputs.settings();
    // The config files decide which provider names and aliases a model setting may refer to.
    const files = resolveConfig({
      userFile: userConfigPath(keelHome(inputs.env)),
      workspaceFile: workspaceConfigPath(folders[0]!.path),
    });
    const known = { providers: Object.keys(files.config.providers), aliases: Object.keys(files.config.modelAliases), sources: [LM_PROVIDER] };
    const { layer, provider } = settingsLayer(read.settings, known);
    const personal = personalSettingsLayer(read, known);
    // Where each provider sends, by the person's own layers: the origin its stored key must belong to.
    const endpoints = mergeLayers(files.personal, personal).providers;

    // Presets too: `keel.provider` names one without configuring it, and "Set API Key" stores its key.
    const providers = new Set([...presetNames, CUSTOM_PROVIDER, ...known.providers, ...Object.keys(layer.providers ?? {})]);
    const apiKeys: Record<string, PairedKey | undefined> = {};
    const secrets: string[] = [];
    for (const provider of providers) {
      // A provider with no endpoint of the person's has no origin a key could be paired with.
      if (!endpoints[provider] && !isPresetName(provider)) continue;
      const origin = providerOrigin(provider, endpoints[provider], inputs.env);
      const key = await inputs.apiKey(provider, origin);
      if (key) {
        apiKeys[provider] = { key, origin };
        secrets.push(key);
      }
    }
    const workspaceFile = inputs.workspaceFile();
    const plugins = inputs.plugins();
    const providerFactories = (await inputs.providerFactories?.()) ?? [];
    const ctx = await Context.create({
      folders,
      ...(workspaceFile ? { workspaceFile } : {}),
      host: inputs.host,
      env: inputs.env,
      overrides: [personal],
      workspaceOverrides: workspaceSettingsLayers(read, layer),
      workspaceTrusted: trusted,
      plugins,
      apiKeys,
      ...(inputs.mcp ? { mcp: inputs.mcp() } : {}),
      providerFactories,
      ...(inputs.worktree ? { worktree: inputs.worktree() } : {}),
      ...(inputs.approveHook ? { approveHook: inputs.approveHook } : {}),
    });
    this.log('info', `core: ready in ${Date.now() - started} ms (${folders.length} folder(s), trusted: ${trusted}, model: ${ctx.models.configuredId('model') ?? 'none'}, approvals: ${ctx.config.approvalMode})`);
    for (const problem of read.problems) this.log('warn', problem);
    // The Context logged its own warnings (the workspace's config that was ignored); the view shows both.
    return { ctx, problems: [...read.problems, ...ctx.warnings], secrets, plugins, provider };
  }
}
