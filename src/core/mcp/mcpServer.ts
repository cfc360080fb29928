import { answerElicitations, elicitationCapability, questionTimeoutMs } from './mcpElicitation';
import { CallClock } from './mcpCallClock';
import { appsCapability } from './mcpAppMeta';
import { answerSampling, samplingCapability } from './mcpSampling';
import { listOfferings } from './mcpLists';
import type { McpOfferings } from './mcpLists';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../errors';
import type { McpServerConfig } from './mcpConfig';
import { stdioTransport } from './mcpStdio';
import type { McpProgress, McpPromptInfo, McpResourceInfo, McpResourceTemplateInfo, McpServerState, McpServerStatus, McpToolInfo } from './mcpTypes';
import { LineLog } from './lineLog';
import { ResourceSubscriptions } from './mcpSubscriptions';
import { Pending, closeQuietly, heldTimeout, unreachable } from './mcpConnection';
import { accessMode, openHttp } from './mcpHttp';
import type { McpOAuthProvider, SignInMode } from './mcpOAuthProvider';
import type { McpServerOptions } from './mcpServerOptions';
import type { AccessMode } from './mcpSignIn';
import { McpSignInRequired, accessProblem, isAccessError, withSignIn } from './mcpSignIn';
import { askForLogs, handleServerRequests, keelClientCapabilities } from './mcpClientHandlers';

/** A call that keeps reporting progress may run this many times the tool timeout in all. */
const progressCapFactor = 10;

/** A connection that stays up this long counts as healthy: the next crash starts the backoff over. */
const healthyAfterMs = 30_000;

/**
 * One MCP server: connects (stdio, streamable HTTP, or SSE when that is all it speaks), lists
 * its tools, prompts and resources, and restarts with backoff when it crashes. Calls in
 * flight when the connection drops are rejected by the SDK, so they end with an error.
 */
export class McpServer {
  readonly config: McpServerConfig;
  readonly log = new LineLog(500);
  private readonly stderrTail = new LineLog(20);
  private client: Client | undefined;
  private state: McpServerState = 'disabled';
  private reason: string | undefined;
  private lists: McpOfferings = { tools: [], prompts: [], resources: [], templates: [] };
  /** The timeouts of the calls running now. */
  private readonly clocks = new Set<CallClock>();
  /** Mentioned resources Keel subscribed to, and which changed since. */
  readonly subscriptions = new ResourceSubscriptions((line) => this.log.add(line), () => this.opts.onChange());
  private failures = 0;
  private readyAt = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped on every start and stop: callbacks of an older connection are ignored. */
  private generation = 0;
  private starting: Promise<void> | undefined;
  /** The lists being read again after a list_changed (`settled()`: read, or failed). */
  readonly relisting = new Pending();
  private transportKind: 'stdio' | 'http' | 'sse';
  /** The connection's sign-in (HTTP servers Keel signs in to), and how the server is authenticated. */
  private provider: McpOAuthProvider | undefined;
  private access: AccessMode = 'none';

  constructor(private readonly opts: McpServerOptions) {
    this.config = opts.config;
    this.transportKind = opts.config.type;
  }

  status(): McpServerStatus {
    const s: McpServerStatus = {
      name: this.config.name,
      origin: this.config.origin,
      transport: this.transportKind,
      state: this.state,
      tools: this.state === 'ready' ? this.lists.tools.length : 0,
      prompts: this.state === 'ready' ? this.lists.prompts.length : 0,
      resources: this.state === 'ready' ? this.lists.resources.length : 0,
    };
    if (this.reason) s.reason = this.reason;
    if (this.state === 'failed' && this.stderrTail.size()) s.stderr = this.stderrTail.lines();
    return s;
  }

  get ready(): boolean {
    return this.state === 'ready' && this.client !== undefined;
  }

  /** What the server told clients about using it (`instructions` of its initialize answer). */
  instructions(): string | undefined {
    return this.ready ? this.client?.getInstructions() : undefined;
  }

  tools(): McpToolInfo[] {
    return this.ready ? this.lists.tools : [];
  }

  prompts(): McpPromptInfo[] {
    return this.ready ? this.lists.prompts : [];
  }

  resources(): McpResourceInfo[] {
    return this.ready ? this.lists.resources : [];
  }

  resourceTemplates(): McpResourceTemplateInfo[] {
    return this.ready ? this.lists.templates : [];
  }

  /** Whether the server said it has resources (it may list none and still read templated ones). */
  get offersResources(): boolean {
    return this.ready && this.client?.getServerCapabilities()?.resources !== undefined;
  }

  /** Resolves when the current start attempt has ended (ready or failed). */
  settled(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  /** `signIn`: the person asked to sign in, so a server that wants it may send them to the browser. */
  start(how: { signIn?: boolean } = {}): Promise<void> {
    this.clearRestart();
    const generation = ++this.generation;
    this.setState('starting');
    const signIn = how.signIn ? 'once' : this.opts.signInWhenAsked && this.config.origin !== 'workspace' ? 'always' : 'never';
    const attempt = this.connect(generation, signIn).finally(() => {
      if (this.starting === attempt) this.starting = undefined;
    });
    this.starting = attempt;
    return attempt;
  }

  /** Stops the server; `reason` is shown while disabled. */
  async stop(reason?: string): Promise<void> {
    this.generation++;
    this.clearRestart();
    const client = this.client;
    this.client = undefined;
    this.setState('disabled', reason);
    if (client) await closeQuietly(client, (m) => this.log.add(`[keel] ${m}`));
  }

  /** Tells a connected server that the roots changed; it asks for them again. */
  rootsChanged(): void {
    const client = this.client;
    if (!client || this.state !== 'ready') return;
    client.sendRootsListChanged().catch((err: unknown) => this.log.add(`[keel] could not announce the new roots: ${errorMessage(err)}`));
  }

  async restart(): Promise<void> {
    this.failures = 0;
    await this.stop();
    await this.start();
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number, onProgress?: (p: McpProgress) => void): Promise<unknown> {
    const client = this.client;
    if (!client || this.state !== 'ready') throw new Error(`MCP server "${this.config.name}" is not running (${this.describeState()})`);
    // Keel keeps the call's timeout itself (CallClock): each progress report restarts it, up to
    // progressCapFactor times the timeout in all, and it stands still while the person answers
    // the server's question. A progress token goes with every call (the SDK adds it for onprogress).
    const timedOut = new AbortController();
    const clock = new CallClock(timeoutMs, timeoutMs * progressCapFactor, () => timedOut.abort(new McpError(ErrorCode.RequestTimeout, `did not answer within ${timeoutMs / 1000} s`)));
    this.clocks.add(clock);
    try {
      return await this.signedIn(() =>
        client.callTool({ name, arguments: args }, undefined, {
          signal: AbortSignal.any([signal, timedOut.signal]),
          // The SDK's own timeout only as a last resort, past anything the clock allows.
          timeout: timeoutMs * progressCapFactor + questionTimeoutMs,
          onprogress: (p) => {
            clock.progress();
            onProgress?.({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) });
          },
        }),
      );
    } catch (err) {
      // An HTTP server that went away shows only as failed requests: treat it as a crash.
      if (this.config.type !== 'stdio' && this.client === client && !signal.aborted && unreachable(err)) this.closedUnexpectedly();
      throw accessProblem(err, this.access) ?? err;
    } finally {
      clock.stop();
      this.clocks.delete(clock);
    }
  }

  /** The server asked the person something (a question, a sampling request): its running calls' timeouts wait for the answer. */
  private holdCalls(): () => void {
    const releases = [...this.clocks].map((c) => c.hold());
    return () => releases.forEach((release) => release());
  }

  async getPrompt(name: string, args: Record<string, string>, timeoutMs: number): Promise<unknown> {
    const client = this.client;
    if (!client || this.state !== 'ready') throw new Error(`MCP server "${this.config.name}" is not running (${this.describeState()})`);
    return this.signedIn(() => client.getPrompt({ name, arguments: args }, { timeout: timeoutMs }));
  }

  async readResource(uri: string, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    const client = this.client;
    if (!client || this.state !== 'ready') throw new Error(`MCP server "${this.config.name}" is not running (${this.describeState()})`);
    return this.signedIn(() => client.readResource({ uri }, signal ? { timeout: timeoutMs, signal } : { timeout: timeoutMs }));
  }

  /** Keeps Keel told when the resource changes (where the server offers subscriptions). */
  async watchResource(uri: string): Promise<void> {
    const client = this.client;
    if (client && this.state === 'ready') await this.subscriptions.watch(client, uri);
  }

  /** A request that may need a sign-in (again, for more access); where that waits for the person's click, so does the server. */
  private signedIn<T>(request: () => Promise<T>): Promise<T> {
    return withSignIn(request, this.provider, () => this.holdCalls()).catch((err: unknown) => {
      if (err instanceof McpSignInRequired && this.state === 'ready') void this.stop().then(() => this.state === 'disabled' && this.setState('signin', 'more access needed'));
      throw err;
    });
  }

  private describeState(): string {
    return this.reason ? `${this.state}: ${this.reason}` : this.state;
  }

  private async connect(generation: number, signIn: SignInMode): Promise<void> {
    const current = () => generation === this.generation;
    const timeout = this.opts.startTimeoutMs;
    try {
      // The start's timeout stands still while the person signs in.
      const clock = heldTimeout(timeout, `did not answer within ${timeout / 1000} s`);
      const opening = this.open(current, signIn, clock.hold);
      let client: Client;
      try {
        client = await clock.race(opening);
      } catch (err) {
        // A connection that comes up after the deadline is closed, so no process is left behind.
        opening.then(
          (late) => closeQuietly(late, (m) => this.log.add(`[keel] ${m}`)),
          (late: unknown) => this.log.add(`[keel] the abandoned start ended with: ${errorMessage(late)}`),
        );
        throw err;
      }
      if (!current()) {
        await closeQuietly(client, (m) => this.log.add(`[keel] ${m}`));
        return;
      }
      this.client = client;
      await askForLogs(client, (line) => this.log.add(line));
      const listing = heldTimeout(timeout, `did not list its tools within ${timeout / 1000} s`);
      await listing.race(withSignIn(() => this.refreshLists(client), this.provider, listing.hold));
      if (!current()) return;
      this.provider?.started();
      this.readyAt = Date.now();
      const summary = `ready: ${this.lists.tools.length} tools, ${this.lists.prompts.length} prompts, ${this.lists.resources.length} resources`;
      this.log.add(`[keel] ${summary}`);
      this.opts.log('info', `MCP server "${this.config.name}" (${this.transportKind}) ${summary}`);
      this.setState('ready');
    } catch (err) {
      if (!current()) return;
      const client = this.client;
      this.client = undefined;
      this.generation++;
      if (client) await closeQuietly(client, (m) => this.log.add(`[keel] ${m}`));
      const problem = accessProblem(err, this.access) ?? err;
      if (!(problem instanceof McpSignInRequired)) return this.failed(`could not start: ${errorMessage(problem)}`, !isAccessError(problem));
      this.log.add(`[keel] ${problem.message}`);
      this.opts.log('info', `MCP server "${this.config.name}": ${problem.message}`);
      this.setState('signin', 'sign-in needed');
    }
  }

  /** Connects over the configured transport (see openHttp for HTTP servers). */
  private async open(current: () => boolean, signIn: SignInMode, hold: () => () => void): Promise<Client> {
    const c = this.config;
    if (c.type === 'stdio') {
      const { transport } = await stdioTransport(c, {
        workspaceRoot: this.opts.workspaceRoot,
        env: this.opts.env,
        ...(this.opts.envPolicy ? { envPolicy: this.opts.envPolicy() } : {}),
        ...(this.opts.sandboxStart ? { sandboxStart: (cwd, visible) => this.opts.sandboxStart!(cwd, visible) } : {}),
        note: (line) => this.log.add(line),
        stderrLine: (line) => this.stderrLine(line),
        announce: (line) => this.opts.log('info', line),
      });
      this.transportKind = 'stdio';
      return this.attach(transport, current);
    }
    this.provider = undefined;
    this.access = accessMode(c, this.opts.oauth);
    const opened = await openHttp(c, {
      ...(this.opts.oauth ? { oauth: this.opts.oauth } : {}),
      signIn,
      attach: (transport) => this.attach(transport, current),
      note: (line) => this.log.add(line),
      current,
      hold,
      transport: (kind) => (this.transportKind = kind),
    });
    if (current()) this.provider = opened.provider;
    return opened.client;
  }

  private async attach(transport: Transport, current: () => boolean): Promise<Client> {
    const { elicit, sample, apps } = this.opts;
    const capabilities = { ...keelClientCapabilities, ...(elicit ? elicitationCapability : {}), ...(sample ? samplingCapability : {}), ...(apps ? appsCapability : {}) };
    const client = new Client({ name: 'keel', version: this.opts.version }, { capabilities });
    handleServerRequests(client, { roots: () => this.opts.roots(), log: (line) => current() && this.log.add(line) });
    if (elicit) answerElicitations(client, this.config.name, elicit, () => this.holdCalls());
    if (sample) answerSampling(client, this.config.name, sample, () => this.holdCalls());
    client.onerror = (err) => {
      if (current()) this.log.add(`[keel] protocol error: ${errorMessage(err)}`);
    };
    client.onclose = () => {
      // While starting, the failed connect reports it (its pending requests are rejected).
      if (current() && this.state === 'ready') this.closedUnexpectedly();
    };
    // Any list that changed is read again (all of them: a change is rare, a list is small).
    const relist = (what: string) => () => {
      if (!current()) return;
      const done = this.signedIn(() => this.refreshLists(client)).then(
        () => this.opts.onChange(),
        (err: unknown) => this.log.add(`[keel] could not refresh the ${what} list: ${errorMessage(err)}`),
      );
      this.relisting.add(done);
      return done;
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, relist('tool'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, relist('prompt'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, relist('resource'));
    this.subscriptions.attach(client, current);
    try {
      await client.connect(transport);
    } catch (err) {
      await closeQuietly(client, (m) => this.log.add(`[keel] ${m}`));
      throw err;
    }
    void this.subscriptions.resubscribe(client);
    return client;
  }

  private async refreshLists(client: Client): Promise<void> {
    this.lists = await listOfferings(client, this.config.name);
  }

  private stderrLine(line: string): void {
    this.log.add(line);
    this.stderrTail.add(line);
  }

  private closedUnexpectedly(): void {
    this.client = undefined;
    this.generation++;
    if (this.state === 'ready' && Date.now() - this.readyAt > healthyAfterMs) this.failures = 0;
    this.failed('the server exited or closed the connection');
  }

  /** `retry`: false when restarting cannot help (a server that needs sign-in). */
  private failed(reason: string, retry = true): void {
    this.log.add(`[keel] ${reason}`);
    const delay = retry ? this.opts.backoffMs[this.failures] : undefined;
    this.failures++;
    if (delay === undefined) {
      this.opts.log('error', `MCP server "${this.config.name}" failed: ${reason}`);
      this.setState('failed', reason);
      return;
    }
    this.opts.log('warn', `MCP server "${this.config.name}" failed (${reason}); restarting in ${delay / 1000} s`);
    this.setState('failed', `${reason}; restarting in ${delay / 1000} s`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start().catch((err: unknown) => this.log.add(`[keel] restart failed: ${errorMessage(err)}`));
    }, delay);
    this.restartTimer.unref?.();
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private setState(state: McpServerState, reason?: string): void {
    this.state = state;
    this.reason = reason;
    if (state === 'starting') this.stderrTail.clear();
    this.opts.onChange();
  }
}
