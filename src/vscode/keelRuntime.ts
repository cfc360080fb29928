import './zodJitless';
import * as vscode from 'vscode';
import { errorMessage } from '../core/errors';
import type { HostWebview } from '../protocol/postMessageTransport';
import type { LogFn } from '../protocol/log';
import { ActivityStatus } from './status/activityStatus';
import { setApiKeyInteractively } from './settings/apiKeyCommand';
import { ApiKeyStore } from './settings/apiKeyStore';
import { BurstThrottle } from '../chat/conversations/burstThrottle';
import { ChatController } from '../chat/chatController';
import type { CoreAccess } from '../chat/runtime/coreAccess';
import type { BuiltCore, CoreInputs } from '../chat/runtime/coreLoader';
import { WorktreeCores } from '../chat/sessions/worktreeCores';
import { WorktreeChats } from './worktrees/worktreeChats';
import { WorktreeReview } from './worktrees/worktreeReview';
import { CoreLoader } from '../chat/runtime/coreLoader';
import { ChangeReview } from './diff/changeReview';
import { registerHunkLenses } from './diff/hunkLenses';
import { TextDiffs } from './diff/textDiffs';
import { FileIndex } from './workspace/fileIndex';
import { McpHub } from './mcp/mcpHub';
import { showMcpServers, signInToMcpServer } from './mcp/mcpQuickPick';
import { KeelContextKeys } from './status/contextKeys';
import { shareCatalogueWithHostLayers } from './hostLocale';
import { mcpViewExtension } from '../chat/bus/mcpView';
import { planCommandIds, runPlanCommand } from './plan/planCommands';
import type { PlanCommandId } from './plan/planCommands';
import { PlanFileEditor } from './plan/planFileEditor';
import { PlanModeStatus } from './status/planModeStatus';
import { LmModelSource } from './lm/lmModelSource';
import { workspaceCore } from './workspace/workspaceCore';
import { connectChatView } from '../chat/bus/nodeBridge';
import type { PluginRegistry } from '../chat/runtime/pluginRegistry';
import { keelSettings } from './settings/keelSettings';
import { followNetworkSettings } from './settings/networkSettings';
import { UiConfigBridge } from './view/uiConfigBridge';
import { createVscodeHost } from './vscodeHost';
import type { WatchedCommand } from './terminal/terminalWatch';
import { commitMessageFor } from './scm/commitMessageRun';
import { askToRunHook } from './settings/hookPrompt';
import { reviewTarget } from '../core/git';
import type { ReviewTarget } from '../core/git';
import { slashCommands } from '../chat/runtime/coreQueries';
import type { SlashEntry } from '../protocol/hostMethods';
import type { CommitMessageOutcome } from './scm/commitMessageRun';
import { VscodeServices } from './workspace/vscodeServices';
import { VscodeSessionUi } from './sessions/vscodeSessionUi';
import { pickSession } from './sessions/sessionPicker';
import { ApprovalNotices, maxConcurrentRuns } from './status/approvalNotices';
import { DEFAULT_MAX_CONCURRENT_RUNS } from '../chat/conversations/conversationWindow';

export const CHAT_VIEW_ID = 'keel.chat';

/** How often, at most, a burst of file changes invalidates the workspace context. */
const CONTEXT_INVALIDATE_MS = 500;

/** workspaceState key: the conversation this window shows, reopened when the extension host restarts (a window reload). */
const OPEN_SESSION_KEY = 'keel.openSession';

/**
 * Everything behind the chat, built on first use (not at activation): the core loader,
 * the controller that owns the conversation, the editor services, and the listeners that
 * rebuild the core when settings, keys, trust or folders change.
 */
export class KeelRuntime {
  readonly controller: ChatController;
  /** File changes waiting for approval, as diff editors (Accept/Reject commands act on them). */
  readonly changes: ChangeReview;
  /** MCP servers of the window (workspace mcp.json, keel.mcpServers). */
  readonly mcp: McpHub;
  private readonly loader: CoreLoader;
  /** The cores of worktree conversations, one per worktree. */
  private readonly worktrees: WorktreeCores;
  /** New Chat in Worktree, Review changes, Keep branch, Discard. */
  readonly worktreeChats: WorktreeChats;
  private readonly core: CoreAccess;
  private readonly services: VscodeServices;
  private readonly disposables: vscode.Disposable[] = [];
  private view: vscode.WebviewView | undefined;
  /** The badge of approvals waiting and the notices of background conversations' approvals. */
  readonly notices = new ApprovalNotices((id) => this.openConversation(id));

  private readonly keys: ApiKeyStore;
  /** The palette's `when` states (keel.running, keel.hasPendingChange, keel.hasPlan, keel.planPending). */
  readonly contextKeys: KeelContextKeys;
  private readonly log: LogFn;
  private readonly host: ReturnType<typeof createVscodeHost>;
  private readonly windowState: vscode.Memento;

  constructor(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel, plugins: PluginRegistry) {
    shareCatalogueWithHostLayers();
    const log: LogFn = (level, message) => channel[level](message);
    this.log = log;
    this.windowState = context.workspaceState;
    const keys = new ApiKeyStore(context.secrets);
    this.keys = keys;
    const host = createVscodeHost(channel);
    this.host = host;
    this.disposables.push(host, followNetworkSettings(log));
    const status = new ActivityStatus(`${CHAT_VIEW_ID}.focus`);
    const mcp = new McpHub(context.workspaceState, context.secrets, log, String(context.extension.packageJSON.version ?? '0'));
    this.mcp = mcp;
    mcp.setSamplingModel(async () => (await this.core.get()).ctx.models.resolve('model'));
    const planStatus = new PlanModeStatus('keel.togglePlanMode');
    const contextKeys = new KeelContextKeys(log);
    this.contextKeys = contextKeys;
    // Nothing runs, waits or is planned yet: say so, so the palette hides those commands from the start.
    contextKeys.running(false);
    contextKeys.pendingChanges(0);
    contextKeys.plan(null);
    const languageModels = new LmModelSource(log, () => this.invalidate("VS Code's language models changed"));
    const inputs: CoreInputs = {
      folders: () =>
        (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ path: f.uri.fsPath, name: f.name })),
      workspaceFile: () => {
        const file = vscode.workspace.workspaceFile;
        return file?.scheme === 'file' ? file.fsPath : undefined;
      },
      trusted: () => vscode.workspace.isTrusted,
      settings: () => keelSettings(true),
      apiKey: (provider, origin) => keys.get(provider, origin),
      plugins: () => plugins.list(),
      providerFactories: () => languageModels.factories(),
      host,
      env: process.env,
      approveHook: askToRunHook,
      mcp: () => mcp.manager,
    };
    this.loader = new CoreLoader(inputs, log);
    const loader = this.loader;
    const core = workspaceCore(loader, languageModels, plugins);
    this.core = core;
    contextKeys.worktree(false);
    const worktrees = new WorktreeCores({ workspace: core, inputs, log });
    this.worktrees = worktrees;
    const changes = new ChangeReview({
      log,
      reveal: () => keelSettings().settings.diffReveal ?? 'background',
    });
    this.changes = changes;
    this.controller = new ChatController({
      core,
      worktrees: {
        coreFor: (id) => worktrees.coreFor(id),
        deleted: (worktree) => this.worktreeChats.afterDelete(worktree),
      },
      log,
      changes,
      trusted: () => vscode.workspace.isTrusted,
      onActivity: (activity) => {
        status.update(activity);
        // Stop and the like act on the conversation in view.
        contextKeys.running(activity.runningInView);
      },
      onApprovalsWaiting: (count) => this.notices.waiting(count),
      maxConcurrentRuns: () => maxConcurrentRuns(DEFAULT_MAX_CONCURRENT_RUNS),
      onPlanChange: (plan) => contextKeys.plan(plan),
      onApprovalNeeded: (background) => {
        if (background) void this.notices.backgroundApproval(background);
        else this.revealForApproval();
      },
      onModeChange: (mode) => planStatus.update(mode),
      planFiles: new PlanFileEditor(),
      sessionUi: new VscodeSessionUi(),
      generateTitles: () => vscode.workspace.getConfiguration('keel').get<string>('sessionTitles', 'model') !== 'firstPrompt',
      onSessionChange: (id) => {
        // The conversation in view changed: the worktree commands follow it.
        if (this.controller) contextKeys.worktree(worktrees.worktreeOf(this.controller.coreInView()) !== undefined);
        this.windowState.update(OPEN_SESSION_KEY, id ?? undefined).then(undefined, (err: unknown) =>
          log('warn', `remembering the open conversation failed: ${errorMessage(err)}`),
        );
      },
    });
    mcp.setCards(this.controller.mcpCards);
    const worktreeReview = new WorktreeReview(changes, log, () => this.controller);
    changes.attach(worktreeReview);
    this.worktreeChats = new WorktreeChats({ controller: this.controller, cores: worktrees, review: worktreeReview, log, env: process.env, reveal: () => this.revealView() });
    this.disposables.push(changes.onDidChange(() => contextKeys.pendingChanges(changes.list().length)));
    plugins.onBuiltInRemoved = () => this.invalidate('a plugin was removed');
    // One watcher for the workspace: the @-file listing and the context gathered for each request.
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    // VS Code raises no configuration change for the personal-only settings a workspace file sets (it ignores them); Keel names them.
    const settingsFiles = vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json');
    const contextStale = new BurstThrottle(() => loader.peek()?.ctx.llmsContext.invalidate(), CONTEXT_INVALIDATE_MS);
    const files = new FileIndex(watcher);
    const textDiffs = new TextDiffs();
    this.disposables.push(textDiffs);
    this.services = new VscodeServices({
      config: new UiConfigBridge(keys, loader, (mode) => this.controller.applyApprovalMode(mode)),
      files,
      diff: changes,
      textDiffs,
      // Paths the chat opens are the conversation's: a worktree conversation's are in its worktree.
      core: { get: () => this.controller.coreInView().get() },
      extensionId: context.extension.id,
    });
    this.disposables.push(
      mcp,
      status,
      planStatus,
      changes,
      registerHunkLenses(changes),
      files,
      watcher.onDidCreate(() => contextStale.signal()),
      watcher.onDidChange(() => contextStale.signal()),
      watcher.onDidDelete(() => contextStale.signal()),
      contextStale,
      watcher,
      settingsFiles,
      settingsFiles.onDidCreate(() => this.invalidate('a workspace settings file changed')),
      settingsFiles.onDidChange(() => this.invalidate('a workspace settings file changed')),
      settingsFiles.onDidDelete(() => this.invalidate('a workspace settings file changed')),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('keel')) this.invalidate('settings changed');
        if (event.affectsConfiguration('keel.approvalMode')) this.followApprovalSetting();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.invalidate('the workspace is now trusted')),
      vscode.lm.onDidChangeChatModels(() => this.invalidate("VS Code's language models changed")),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        files.invalidate();
        this.invalidate('workspace folders changed');
      }),
      context.secrets.onDidChange((event) => {
        if (ApiKeyStore.isKeyName(event.key)) this.invalidate('an API key changed');
      }),
    );
  }

  /** Wires a freshly created chat page to the controller. */
  connectView(view: vscode.WebviewView, webview: HostWebview, channel: vscode.LogOutputChannel): vscode.Disposable {
    this.view = view;
    this.notices.attach(view);
    const connection = connectChatView(view, webview, this.controller, this.services, (level, message) => channel[level](message), [
      mcpViewExtension(this.mcp.manager, this.controller.mcpCards),
    ]);
    // The page's first snapshot needs the core: build it while the page loads, not after its `ready`
    // (configSummary never rejects; a core that cannot start is reported with the snapshot).
    void this.controller.configSummary();
    void this.warmUpContext();
    return new vscode.Disposable(() => {
      connection.dispose();
      this.notices.detach(view);
      if (this.view === view) this.view = undefined;
    });
  }

  /**
   * A window reload starts a new extension host: the conversation the window showed is
   * reopened from its log, so the view comes back as it was. Failing that, the chat starts empty.
   */
  async restoreOpenSession(): Promise<void> {
    const id = this.windowState.get<unknown>(OPEN_SESSION_KEY);
    if (typeof id !== 'string' || id === '') return;
    try {
      await this.controller.sessions.resume(id);
      this.log('info', `reopened the conversation ${id} this window showed before`);
    } catch (err) {
      this.log('warn', `could not reopen the conversation ${id} this window showed before: ${errorMessage(err)}`);
    }
  }

  /** Gathers the workspace context in the background so the first message does not wait for it. */
  private async warmUpContext(): Promise<void> {
    let built: BuiltCore;
    try {
      built = await this.core.get();
    } catch (err) {
      // The view reports a core that cannot start; there is no context to warm without one.
      this.log('debug', `context warm-up skipped: ${errorMessage(err)}`);
      return;
    }
    await built.ctx.llmsContext.warmUp();
  }

  /** "Keel: Sign In to an MCP Server": the named server, or a pick among those waiting. */
  signInToMcpServer(name?: string): Promise<void> {
    return signInToMcpServer(this.mcp, name);
  }

  showMcpServers(): Promise<void> {
    return showMcpServers(this.mcp);
  }

  /** "Keel: Open Session…" (the quick pick lives here, in the lazily loaded runtime, not in the shell). */
  openSessionPicker(): Promise<void> {
    return pickSession(this.controller, () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`), (message) => this.log('warn', message));
  }

  /** What the view shows as its badge now (the test hooks read it). */
  viewBadge(): vscode.ViewBadge | undefined {
    const badge = this.view?.badge;
    return badge ? { ...badge } : undefined;
  }

  /** Brings a conversation into view (a notice's "Open"), the chat panel shown. */
  async openConversation(id: string): Promise<void> {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    await this.controller.sessions.resume(id);
    this.controller.showPanel('chat');
  }

  /** A command of the person's own terminal becomes what @terminal (its chip) sends. */
  pointTerminal(command: WatchedCommand): void {
    this.host.pointTerminal(command);
  }

  /** The command files and skills `/name` runs, for "Keel: Run Command or Skill…". */
  async slashCommands(): Promise<SlashEntry[]> {
    return slashCommands((await this.controller.inView.core.get()).ctx);
  }

  /** The custom agents there are, and the one the conversation in view works as, for "Keel: Use Agent…". */
  agents(): Promise<{ agents: { name: string; description: string; display: string }[]; current: string | undefined }> {
    return this.controller.inView.agents();
  }

  /** The conversation in view works as this agent ('' for none) from its next message on (the composer's picker goes the same way). */
  async useAgent(name: string): Promise<void> {
    await this.controller.inView.useAgent(name);
  }

  /** What "Review Changes with Keel" reviews in the repository at `root`. */
  reviewTarget(root: string): Promise<ReviewTarget> {
    return reviewTarget(root);
  }

  /** "Generate Commit Message": the small model writes one for the repository at `root`. */
  commitMessage(root: string, onText: (soFar: string) => void): Promise<CommitMessageOutcome> {
    return commitMessageFor(this.core, root, onText);
  }

  setApiKey(): Promise<void> {
    return setApiKeyInteractively(this.keys, this.loader.peek()?.ctx.config, this.log);
  }

  async shutdown(): Promise<void> {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    await this.controller.dispose();
    await this.worktrees.dispose();
    await this.loader.dispose();
    await this.mcp.manager.dispose();
  }

  private invalidate(reason: string): void {
    this.loader.invalidate(reason);
    this.worktrees.invalidate(reason);
    this.controller.configChanged();
  }

  /** A change in the Settings editor applies to the open conversation too, as one from the chat does. */
  private followApprovalSetting(): void {
    const { settings } = keelSettings();
    if (settings.approvalMode) this.controller.applyApprovalMode(settings.approvalMode);
  }

  /** Runs one of plan mode's palette commands (registered by the extension shell). */
  planCommand(id: string, args: readonly unknown[]): Promise<void> {
    if (!planCommandIds.includes(id as PlanCommandId)) return Promise.reject(new Error(`unknown plan command ${id}`));
    return runPlanCommand(this, id as PlanCommandId, args);
  }

  /** Shows the chat without moving the person's focus away from the editor they work in. */
  async revealView(): Promise<void> {
    const view = this.view;
    if (view) {
      if (!view.visible) view.show(true);
      return;
    }
    const editor = vscode.window.activeTextEditor;
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    if (editor) await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, selection: editor.selection, preserveFocus: false });
  }

  /** An approval waits: show the view if it is hidden, without taking focus from the editor. */
  private revealForApproval(): void {
    const view = this.view;
    if (view && !view.visible) view.show(true);
  }
}
