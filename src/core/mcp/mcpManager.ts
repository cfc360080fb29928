import { errorMessage } from '../errors';
import type { AnyTool } from '../tools/tool';
import type { McpConfigProblem, McpServerConfig } from './mcpConfig';
import type { McpManagerOptions } from './mcpManagerOptions';
import { noExtraEnv } from '../env/childEnv';
import type { ChildEnvPolicy } from '../env/childEnv';
import { serverFingerprint } from './mcpEnv';
import { mcpToolName } from './mcpNames';
import { defaultImageCap, defaultTextCap } from './mcpResult';
import type { McpServerOptions } from './mcpServerOptions';
import { appPage } from './mcpAppHtml';
import type { AppPage } from './mcpAppHtml';
import { McpServer } from './mcpServer';
import { oauthKey } from './mcpOAuthProvider';
import { accessMode } from './mcpHttp';
import { mcpTool } from './mcpTool';
import { mcpResourceTool, resourceText } from './mcpResourceTool';
import { changedResourceTexts } from './mcpSubscriptions';
import type { McpPromptInfo, McpResourceInfo, McpResourceTemplateInfo, McpServerStatus, McpToolCaller, McpToolInfo } from './mcpTypes';

const defaultToolTimeoutMs = 60_000;

interface Entry {
  server: McpServer;
  fingerprint: string;
}

/**
 * Every MCP server of a workspace: starts them (asking about workspace servers), keeps their
 * state for the status list, and offers their tools and prompts. Hosts keep one across core
 * rebuilds and give it new configs with `setServers`; only servers whose config changed restart.
 */
export class McpManager {
  private readonly entries = new Map<string, Entry>();
  private problems: McpConfigProblem[] = [];
  private readonly listeners = new Set<() => void>();
  private trusted: boolean;
  private disposed = false;
  private disposing: Promise<void> | undefined;
  private timeoutMs: number;
  private roots: readonly string[];
  private sandboxStart: McpServerOptions['sandboxStart'];
  private envPolicy: ChildEnvPolicy = noExtraEnv;
  private sandboxSet: Promise<void>;
  private markSandboxSet: () => void = () => undefined;
  private waitingForSandbox: boolean;

  constructor(private readonly opts: McpManagerOptions) {
    this.sandboxStart = opts.sandboxStart;
    this.waitingForSandbox = opts.waitForSandbox === true;
    this.sandboxSet = opts.waitForSandbox ? new Promise((resolve) => (this.markSandboxSet = resolve)) : Promise.resolve();
    this.trusted = opts.trusted;
    this.timeoutMs = opts.toolTimeoutMs ?? defaultToolTimeoutMs;
    this.roots = opts.roots ?? [opts.workspaceRoot];
  }

  /**
   * The sandbox servers started from now on run in, and what they may inherit of the
   * environment besides the built-in list (a host keeps the manager across config changes).
   */
  setSandbox(start: McpServerOptions['sandboxStart'], envPolicy?: ChildEnvPolicy): void {
    this.sandboxStart = start;
    if (envPolicy) this.envPolicy = envPolicy;
    this.waitingForSandbox = false;
    this.markSandboxSet();
  }

  get toolTimeoutMs(): number {
    return this.timeoutMs;
  }

  /** From the config (`mcpToolTimeout`), applied to calls that start from now on. */
  /** New workspace folders: running servers are told their roots changed (and ask again). */
  setRoots(folders: readonly string[]): void {
    if (folders.length === this.roots.length && folders.every((f, i) => f === this.roots[i])) return;
    this.roots = [...folders];
    for (const { server } of this.entries.values()) server.rootsChanged();
  }

  setToolTimeout(ms: number): void {
    this.timeoutMs = ms;
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies a new set of servers: new ones start, removed ones stop, changed ones restart. */
  setServers(configs: McpServerConfig[], problems: McpConfigProblem[] = []): void {
    this.problems = problems;
    for (const p of problems) this.opts.log('warn', p.message);
    const wanted = new Map<string, McpServerConfig>();
    for (const c of configs) {
      // Later sources (workspace after user) win for the same name, as in VS Code.
      wanted.set(c.name, c);
    }
    for (const [name, entry] of this.entries) {
      const next = wanted.get(name);
      if (!next || serverFingerprint(next) !== entry.fingerprint || next.origin !== entry.server.config.origin) {
        this.entries.delete(name);
        void entry.server.stop();
      }
    }
    for (const [name, config] of wanted) {
      if (this.entries.has(name)) continue;
      const server = new McpServer({
        config,
        workspaceRoot: this.opts.workspaceRoot,
        env: this.opts.env,
        startTimeoutMs: this.opts.startTimeoutMs ?? 30_000,
        backoffMs: this.opts.backoffMs ?? [1000, 2000, 4000, 8000, 16000],
        onChange: () => this.changed(),
        log: this.opts.log,
        version: this.opts.version ?? '0',
        roots: () => this.roots,
        ...(this.opts.elicit ? { elicit: this.opts.elicit } : {}),
        ...(this.opts.sample ? { sample: this.opts.sample } : {}),
        ...(this.opts.apps ? { apps: true } : {}),
        ...(this.opts.oauth ? { oauth: this.opts.oauth, signInWhenAsked: this.opts.signInWhenAsked === true } : {}),
        envPolicy: () => this.envPolicy,
        sandboxStart: async (cwd, visible) => {
          await this.sandboxSet;
          return this.sandboxStart?.(cwd, visible);
        },
      });
      this.entries.set(name, { server, fingerprint: serverFingerprint(config) });
      void this.startIfAllowed(server);
    }
    this.changed();
  }

  /** Workspace Trust was granted or withdrawn. */
  setTrusted(trusted: boolean): void {
    if (trusted === this.trusted) return;
    this.trusted = trusted;
    for (const { server } of this.entries.values()) {
      if (trusted) void this.startIfAllowed(server);
      else void server.stop('the workspace is not trusted');
    }
  }

  status(): McpServerStatus[] {
    const out = [...this.entries.values()].map(({ server }) => server.status());
    for (const p of this.problems) {
      if (p.server && this.entries.has(p.server)) continue;
      out.push({ name: p.server ?? '(config)', origin: 'user', transport: 'stdio', state: 'failed', tools: 0, prompts: 0, resources: 0, reason: p.message });
    }
    return out;
  }

  /** The instructions of the running servers that give any, in config order, for the system prompt. */
  instructions(): { server: string; text: string }[] {
    return [...this.entries.values()].flatMap(({ server }) => {
      const text = server.instructions()?.trim();
      return text ? [{ server: server.config.name, text }] : [];
    });
  }

  /** A server's log: what Keel did with it and everything it wrote to stderr. */
  log(name: string): string[] {
    return this.entries.get(name)?.server.log.lines() ?? [];
  }

  /** What a ready server offers, for people to read. */
  catalogue(name: string): { tools: McpToolInfo[]; prompts: McpPromptInfo[]; resources: McpResourceInfo[] } {
    const server = this.require(name).server;
    return { tools: server.tools(), prompts: server.prompts(), resources: server.resources() };
  }

  config(name: string): McpServerConfig | undefined {
    return this.entries.get(name)?.server.config;
  }

  async restart(name: string): Promise<void> {
    const entry = this.require(name);
    await entry.server.stop();
    await this.startIfAllowed(entry.server);
  }

  /** The person asked to sign in: the server starts again and may open the browser (a workspace server is approved first). */
  async signIn(name: string): Promise<void> {
    const entry = this.require(name);
    if (entry.server.config.type === 'stdio') throw new Error(`MCP server "${name}" runs locally; only HTTP servers sign in`);
    await entry.server.stop();
    await this.startIfAllowed(entry.server, true, true);
  }

  /** Forgets a server's tokens and registered client, and starts it again (it then needs a new sign-in). */
  async signOut(name: string): Promise<void> {
    const entry = this.require(name);
    const c = entry.server.config;
    if (c.type === 'stdio' || !this.opts.oauth) return;
    await entry.server.stop();
    await this.opts.oauth.store.write(oauthKey(c), {});
    await this.startIfAllowed(entry.server);
  }

  /** Whether Keel signs in to this server (see accessMode). */
  signsIn(name: string): boolean {
    const c = this.entries.get(name)?.server.config;
    return c !== undefined && c.type !== 'stdio' && accessMode(c, this.opts.oauth) === 'oauth';
  }

  /** Turns a server on or off for now; hosts remember the choice and pass it back through `isDisabled`. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const entry = this.require(name);
    if (enabled) await this.startIfAllowed(entry.server, true);
    else await entry.server.stop('disabled');
  }

  /**
   * The tools of every ready server. Waits for servers that are still starting (each start is
   * bounded by the start timeout), so the first request after opening sees their tools.
   */
  async tools(): Promise<AnyTool[]> {
    await Promise.all([...this.entries.values()].map(({ server }) => server.settled()));
    return this.readyTools();
  }

  /** Resolves once the lists servers announced as changed have been read again. */
  async listsSettled(): Promise<void> {
    await Promise.all([...this.entries.values()].map(({ server }) => server.relisting.settled()));
  }

  /**
   * The tools of the servers ready now, without waiting: a running request asks again after a
   * server's list changed, and appends what is new. The resource tool comes last, when any
   * ready server offers resources.
   */
  readyTools(): AnyTool[] {
    const out = this.serverTools('model');
    if (this.resourceServers().length) out.push(this.resourceTool);
    return out;
  }

  /** The tools MCP Apps may call (`_meta.ui.visibility`), of the servers ready once those starting are done. */
  async appTools(): Promise<AnyTool[]> {
    await Promise.all([...this.entries.values()].map(({ server }) => server.settled()));
    return this.serverTools('app');
  }

  private serverTools(caller: McpToolCaller): AnyTool[] {
    const out: AnyTool[] = [];
    const seen = new Set<string>();
    for (const { server } of this.entries.values()) {
      for (const info of server.tools()) {
        if (info.visibility && !info.visibility.includes(caller)) continue;
        const name = mcpToolName(server.config.name, info.name);
        if (seen.has(name)) {
          this.opts.log('warn', `MCP tool "${info.name}" of "${server.config.name}" has the same name as another tool once cleaned up (${name}); it is left out.`);
          continue;
        }
        seen.add(name);
        out.push(
          mcpTool({
            server: server.config.name,
            info,
            name,
            timeoutMs: this.toolTimeoutMs,
            caps: this.opts.resultCaps ?? { text: defaultTextCap, image: defaultImageCap },
            call: (args, signal, onProgress) => server.callTool(info.name, args, signal, this.toolTimeoutMs, onProgress),
          }),
        );
      }
    }
    return out;
  }

  /** One instance, so a request that already offers it sees the same tool after a list change. */
  private readonly resourceTool = mcpResourceTool({
    servers: () => this.resourceServers(),
    resources: (name) => this.entries.get(name)?.server.resources() ?? [],
    templates: (name) => this.entries.get(name)?.server.resourceTemplates() ?? [],
    read: (name, uri, signal) => this.require(name).server.readResource(uri, this.toolTimeoutMs, signal),
    caps: () => this.opts.resultCaps ?? { text: defaultTextCap, image: defaultImageCap },
  });

  private resourceServers(): string[] {
    return [...this.entries.values()].filter(({ server }) => server.offersResources).map(({ server }) => server.config.name);
  }

  prompts(): McpPromptInfo[] {
    return [...this.entries.values()].flatMap(({ server }) => server.prompts());
  }

  resources(): McpResourceInfo[] {
    return [...this.entries.values()].flatMap(({ server }) => server.resources());
  }

  resourceTemplates(): McpResourceTemplateInfo[] {
    return [...this.entries.values()].flatMap(({ server }) => server.resourceTemplates());
  }

  /** A prompt's messages as the text of a user message. */
  async promptText(server: string, prompt: string, args: Record<string, string>): Promise<string> {
    const raw = (await this.require(server).server.getPrompt(prompt, args, this.toolTimeoutMs)) as { messages?: { role: string; content: unknown }[] };
    const messages = raw.messages ?? [];
    const text = messages.map((m) => {
      const body = promptContentText(m.content);
      return messages.length > 1 || m.role !== 'user' ? `${m.role === 'user' ? 'User' : 'Assistant'}: ${body}` : body;
    });
    return text.join('\n\n');
  }

  async readResource(server: string, uri: string): Promise<unknown> {
    return this.require(server).server.readResource(uri, this.toolTimeoutMs);
  }

  /** An MCP App's page (the `ui://` resource of a running server), with its policy in it. */
  async appPage(server: string, uri: string): Promise<AppPage> {
    return appPage(await this.readResource(server, uri), uri);
  }

  /** A resource as text, for an @server:uri mention. */
  async resourceText(server: string, uri: string): Promise<string> {
    return resourceText(await this.readResource(server, uri), this.opts.resultCaps ?? { text: defaultTextCap, image: defaultImageCap });
  }

  /** A resource a message mentioned: Keel subscribes where the server offers it (failures are logged, never thrown). */
  async watchResource(server: string, uri: string): Promise<void> {
    await this.entries.get(server)?.server.watchResource(uri);
  }

  /**
   * Of these mentioned resources, those that changed since they were read, with their text now
   * (read again only after a new change). One that cannot be read says why instead.
   */
  async changedResources(mentioned: readonly { server: string; uri: string }[]): Promise<{ server: string; uri: string; text: string }[]> {
    return changedResourceTexts(mentioned, (name) => this.entries.get(name)?.server.subscriptions, (server, uri) => this.resourceText(server, uri));
  }

  /** Stops every server; later calls wait for the same shutdown. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      this.disposed = true;
      this.listeners.clear();
      const servers = [...this.entries.values()];
      this.entries.clear();
      await Promise.all(servers.map(({ server }) => server.stop()));
    })();
    return this.disposing;
  }

  private require(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`No MCP server named "${name}".`);
    return entry;
  }

  private async startIfAllowed(server: McpServer, explicit = false, signIn = false): Promise<void> {
    if (this.disposed) return;
    const name = server.config.name;
    if (!this.trusted) return void (await server.stop('the workspace is not trusted'));
    if (!explicit && this.opts.isDisabled?.(name)) return void (await server.stop('disabled'));
    if (server.config.origin === 'workspace') {
      if (!this.opts.approve) return void (await server.stop('workspace servers need approval, and this host cannot ask'));
      await server.stop('waiting for approval');
      let approved: boolean;
      try {
        approved = await this.opts.approve(server.config);
      } catch (err) {
        this.opts.log('error', `Asking about MCP server "${name}" failed: ${errorMessage(err)}`);
        approved = false;
      }
      if (this.entries.get(name)?.server !== server || this.disposed) return;
      if (!approved) return void (await server.stop('not approved (enable it to be asked again)'));
    }
    if (this.waitingForSandbox && server.config.type === 'stdio') {
      // Waited for outside the start, whose timeout would otherwise run out.
      await server.stop('waiting for Keel to read its sandbox setting');
      await this.sandboxSet;
      if (this.entries.get(name)?.server !== server || this.disposed) return;
    }
    await server.start({ signIn });
  }

  private changed(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch (err) {
        this.opts.log('error', `MCP status listener failed: ${errorMessage(err)}`);
      }
    }
  }
}

function promptContentText(content: unknown): string {
  const c = (content ?? {}) as Record<string, unknown>;
  if (c.type === 'text') return String(c.text ?? '');
  if (c.type === 'resource') {
    const r = (c.resource ?? {}) as Record<string, unknown>;
    return typeof r.text === 'string' ? `Resource ${String(r.uri)}:\n${r.text}` : `[resource ${String(r.uri)}]`;
  }
  if (c.type === 'resource_link') return `[resource ${String(c.uri)}]`;
  return `[${String(c.type)} content]`;
}
