import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { ElicitQuestion, Elicitor, McpServerConfig, ParsedMcpConfig } from '../../core/mcp';
import type { McpCards } from '../../chat/approvals/mcpCards';

/** What asks servers' requests in the chat (see McpCards); undefined from it: no chat view can show one now. */
export type McpRequestCards = Pick<McpCards, 'elicit' | 'approveSampling'>;
import { McpManager, approvedSampler, describeServer, lastUserText, parseMcpConfig, readMcpFile, serverFingerprint } from '../../core/mcp';
import { vscodeElicitor } from './mcpQuestions';
import { askToSample } from './mcpSamplingPrompt';
import { McpSecretStore } from './mcpSecretStore';
import { openSignInPage, reachableRedirect } from './mcpSignInPage';
import type { LogFn } from '../../protocol/log';
import type { LanguageModel } from 'ai';

/** workspaceState keys: fingerprints of approved workspace servers; servers the person turned off. */
const APPROVED_KEY = 'keel.mcpApproved';
const DISABLED_KEY = 'keel.mcpDisabled';

/** Asks the person whether a workspace server may start; `changed`: it was approved before with another config. */
export type McpApprovalPrompt = (server: McpServerConfig, details: string[], changed: boolean) => Promise<boolean>;

/**
 * The window's MCP servers: read from the workspace's `.vscode/mcp.json` and the
 * `keel.mcpServers` setting, kept running across core rebuilds, started only in a trusted
 * workspace, and workspace servers only once the person approved exactly what they run.
 */
export class McpHub implements vscode.Disposable {
  readonly manager: McpManager;
  private readonly disposables: vscode.Disposable[] = [];
  private prompt: McpApprovalPrompt = modalPrompt;
  /** The person's model, for servers' sampling requests (set once the core can resolve it). */
  private samplingModel: (() => Promise<{ id: string; model: LanguageModel }>) | undefined;
  /** The extension's own tests: where sign-in pages go instead of the person's browser. */
  private browser: ((url: string) => Promise<void>) | undefined;
  /** One question per server at a time, however many starts ask. */
  private readonly asking = new Map<string, Promise<boolean>>();

  /** The chat's cards for servers' requests; VS Code's own prompts ask when no chat view can show them. */
  private cards: McpRequestCards | undefined;

  constructor(
    private readonly state: vscode.Memento,
    secrets: vscode.SecretStorage,
    private readonly log: LogFn,
    version: string,
  ) {
    const native = vscodeElicitor();
    this.manager = new McpManager({
      workspaceRoot: rootFolder() ?? process.cwd(),
      roots: fileFolders(),
      env: process.env,
      trusted: vscode.workspace.isTrusted,
      log: (level, message) => log(level, `mcp: ${message}`),
      // Local servers start once the core has read the sandbox setting.
      waitForSandbox: true,
      approve: (server) => this.approve(server),
      isDisabled: (name) => this.disabled().includes(name),
      elicit: (server, question, signal) => this.cards?.elicit(server, question, signal)?.then((answer) => this.afterCard(question, answer)) ?? native(server, question, signal),
      apps: true,
      sample: approvedSampler(
        (server, request, modelId, params, signal) =>
          this.cards?.approveSampling(server, modelId, params, signal) ?? askToSample(server, request, modelId, lastUserText(params)),
        () => {
          if (!this.samplingModel) throw new Error('Keel has no model to run it on yet');
          return this.samplingModel();
        },
      ),
      // Sign-in only when the person clicks "Sign in" (signIn below); stored tokens are used and refreshed.
      oauth: {
        store: new McpSecretStore(secrets),
        present: (server, url) => (this.browser ? this.browser(url.href) : openSignInPage(server, url, log)),
        externalRedirect: (loopback) => reachableRedirect(loopback, log),
      },
      version,
    });
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/mcp.json');
    this.disposables.push(
      watcher,
      watcher.onDidCreate(() => this.reload()),
      watcher.onDidChange(() => this.reload()),
      watcher.onDidDelete(() => this.reload()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('keel.mcpServers')) this.reload();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.manager.setTrusted(true)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.manager.setRoots(fileFolders());
        this.reload();
      }),
    );
    this.reload();
  }

  /** Where servers' sampling requests run once approved: the person's configured model. */
  setSamplingModel(resolve: () => Promise<{ id: string; model: LanguageModel }>): void {
    this.samplingModel = resolve;
  }

  /** For the extension's own tests: opens sign-in pages instead of the person's browser. */
  setSignInBrowser(open: (url: string) => Promise<void>): void {
    this.browser = open;
  }

  /** Servers' questions and sampling requests are asked in the chat from now on, whenever a chat view is open. */
  setCards(cards: McpRequestCards): void {
    this.cards = cards;
  }

  /** A page the person agreed to open on the card opens now, in their browser. */
  private async afterCard(question: ElicitQuestion, answer: Awaited<ReturnType<Elicitor>>): Promise<Awaited<ReturnType<Elicitor>>> {
    if (question.mode !== 'url' || answer.action !== 'accept') return answer;
    const opened = await vscode.env.openExternal(vscode.Uri.parse(question.params.url, true));
    if (!opened) this.log('warn', `mcp: the page ${question.params.url} could not be opened`);
    return answer;
  }

  /** For the extension's own tests: answers approvals instead of the modal. */
  setPrompt(prompt: McpApprovalPrompt): void {
    this.prompt = prompt;
  }

  /** The person clicked "Sign in": the server starts again and opens the browser if it needs to (a workspace server is approved first). */
  signIn(name: string): Promise<void> {
    this.log('info', `mcp: signing in to "${name}" (the person asked)`);
    return this.manager.signIn(name);
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const disabled = new Set(this.disabled());
    if (enabled) disabled.delete(name);
    else disabled.add(name);
    await this.state.update(DISABLED_KEY, [...disabled]);
    await this.manager.setEnabled(name, enabled);
  }

  isDisabled(name: string): boolean {
    return this.disabled().includes(name);
  }

  /** Reads every source again; the manager restarts only servers whose config changed. */
  reload(): void {
    const user = this.userServers();
    const workspace = this.workspaceServers();
    this.manager.setServers([...user.servers, ...workspace.servers], [...user.problems, ...workspace.problems]);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.manager.dispose().catch((err: unknown) => this.log('warn', `mcp: stopping the servers failed: ${errorMessage(err)}`));
  }

  private disabled(): string[] {
    const v = this.state.get<unknown>(DISABLED_KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  /** `keel.mcpServers` from the user's settings; a workspace's value counts as a workspace server. */
  private userServers(): ParsedMcpConfig {
    const inspected = vscode.workspace.getConfiguration('keel').inspect<unknown>('mcpServers');
    const vars = { workspaceFolder: rootFolder() ?? '', env: process.env };
    const out: ParsedMcpConfig = { servers: [], problems: [] };
    const add = (value: unknown, origin: 'user' | 'workspace', source: string) => {
      if (value === undefined) return;
      const parsed = parseMcpConfig({ servers: value }, origin, vars, source);
      out.servers.push(...parsed.servers);
      out.problems.push(...parsed.problems);
    };
    add(inspected?.globalValue, 'user', vscode.l10n.t('keel.mcpServers (user settings)'));
    add(inspected?.workspaceValue, 'workspace', vscode.l10n.t('keel.mcpServers (workspace settings)'));
    add(inspected?.workspaceFolderValue, 'workspace', vscode.l10n.t('keel.mcpServers (folder settings)'));
    return out;
  }

  private workspaceServers(): ParsedMcpConfig {
    const out: ParsedMcpConfig = { servers: [], problems: [] };
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json').fsPath;
      const parsed = readMcpFile(file, 'workspace', { workspaceFolder: folder.uri.fsPath, env: process.env });
      out.servers.push(...parsed.servers);
      out.problems.push(...parsed.problems);
    }
    return out;
  }

  private approve(server: McpServerConfig): Promise<boolean> {
    const waiting = this.asking.get(server.name);
    if (waiting) return waiting;
    const asked = this.ask(server).finally(() => this.asking.delete(server.name));
    this.asking.set(server.name, asked);
    return asked;
  }

  private async ask(server: McpServerConfig): Promise<boolean> {
    const fingerprint = serverFingerprint(server);
    const approved = this.approved();
    if (approved[server.name] === fingerprint) return true;
    const ok = await this.prompt(server, describeServer(server), approved[server.name] !== undefined);
    this.log('info', `mcp: workspace server "${server.name}" ${ok ? 'approved' : 'not approved'} by the person`);
    if (ok) await this.state.update(APPROVED_KEY, { ...this.approved(), [server.name]: fingerprint });
    return ok;
  }

  private approved(): Record<string, string> {
    const v = this.state.get<unknown>(APPROVED_KEY);
    return typeof v === 'object' && v !== null ? (v as Record<string, string>) : {};
  }
}

/** The workspace's folders on disk: the roots MCP servers see. */
function fileFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function rootFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
}

const modalPrompt: McpApprovalPrompt = async (server, details, changed) => {
  const message = changed
    ? vscode.l10n.t('The MCP server "{0}" in this workspace changed since you allowed it. Start it now?', server.name)
    : vscode.l10n.t('Start the MCP server "{0}" from this workspace\'s .vscode/mcp.json?', server.name);
  const detail = `${details.join('\n')}\n\n${vscode.l10n.t('It runs with your permissions, in the workspace folder. Only allow servers you trust.')}`;
  const allow = vscode.l10n.t('Allow');
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, allow);
  return answer === allow;
};
