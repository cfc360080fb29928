import * as l10n from '@vscode/l10n';
import { errorMessage } from '../../src/protocol/busError';
import { createWebviewBus } from '../../src/protocol/buses';
import type { WebviewBus } from '../../src/protocol/buses';
import type { HostSide } from '../../src/protocol/catalogue';
import type { LogFn } from '../../src/protocol/log';
import { createWebviewTransport } from '../../src/protocol/postMessageTransport';
import type { AgentMode, SessionSummary } from '../../src/protocol/sessionState';
import type { MethodOf, ParamsIn, ResultOut } from '../../src/protocol/side';
import type { ToolApprovalResult } from '../../src/protocol/toolApproval';
import type { ConfigSetParams, ModelInfo, UiConfig } from '../../src/protocol/uiConfig';
import type { ImageAttachment, LineRange, Mention } from '../../src/protocol/uiMessage';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import type { Panel } from '../store/chatMeta';
import type { ChatStore } from '../store/chatStore';
import { requestErrorToUi } from './requestError';
import { vscodeApi } from './vscodeApi';

type HostMethod = MethodOf<HostSide>;

export interface SendInput {
  text: string;
  images?: ImageAttachment[];
  mentions?: Mention[];
  mode?: AgentMode;
}

export type UiCommand = ParamsIn<HostSide, 'command.run'>['command'];
export type RevertResult = ResultOut<HostSide, 'change.undo'>;

/**
 * What the components may do. Every action that fails puts a clear error in the store
 * and resolves to undefined, so a component never has to catch.
 */
export interface UiBridge {
  send(input: SendInput): Promise<{ messageId: string; queued: boolean } | undefined>;
  cancel(): Promise<void>;
  newChat(): Promise<void>;
  /** `/compact`: summarize the conversation so far; what went wrong (or that there was nothing) is shown. */
  compact(): Promise<void>;
  /** One page of past chats, newest first; `offset` pages in more. */
  listSessions(query: string, offset?: number): Promise<{ sessions: SessionSummary[]; total: number } | undefined>;
  renameSession(id: string, title: string): Promise<string | undefined>;
  /** The host asks the person to confirm first; true when it was deleted. */
  deleteSession(id: string): Promise<boolean>;
  exportSession(id: string, format: 'markdown' | 'json'): Promise<void>;
  /** "Edit and resend" an earlier prompt: a new branch from before it. */
  editAndResend(messageId: string, text: string): Promise<void>;
  /** Show version `index` (1-based) of an edited prompt. */
  switchBranch(messageId: string, index: number): Promise<void>;
  /** The whole of a long conversation that opened with its recent part. */
  loadEarlier(): Promise<void>;
  resume(id: string): Promise<void>;
  getConfig(): Promise<UiConfig | undefined>;
  setConfig(params: ConfigSetParams): Promise<UiConfig | undefined>;
  listModels(): Promise<{ models: ModelInfo[]; current: string | null } | undefined>;
  searchFiles(query: string): Promise<{ path: string; kind: 'file' | 'folder' }[] | undefined>;
  openLink(url: string): Promise<void>;
  insertCode(code: string, language?: string): Promise<void>;
  openFile(path: string, range?: LineRange): Promise<void>;
  openDiff(approvalId: string): Promise<void>;
  /** Undo one applied file change; a `conflict` result wrote nothing and may be sent again with `force`. */
  undoChange(changeId: string, force?: boolean): Promise<RevertResult | undefined>;
  /** Undo every file one command changed (a bash card); same `conflict` rule. */
  undoCommand(toolCallId: string, force?: boolean): Promise<RevertResult | undefined>;
  /** Show what a command did to one file in a diff editor. */
  openCommandDiff(changeId: string): Promise<boolean>;
  /** Put back every file Keel changed from this message on; same `conflict` rule. */
  restoreFiles(messageId: string, force?: boolean): Promise<RevertResult | undefined>;
  openSettings(query?: string): Promise<void>;
  /** `args`: one string argument (the name of `/worktree NAME`). */
  runCommand(command: UiCommand, args?: string[]): Promise<void>;
  /** An MCP prompt filled with these arguments: the text to send, or undefined (the error is shown). */
  mcpPrompt(server: string, prompt: string, args: Record<string, string>): Promise<string | undefined>;
  respondToApproval(id: string, result: ToolApprovalResult): void;
  /** Sends the newest user message again (after an error). */
  retryLast(): Promise<void>;
  dismissError(id: number): void;
  /** Shows a failure that happened inside the webview (e.g. the clipboard refused). */
  reportProblem(message: string): void;
  showPanel(panel: Panel): void;
  /** Makes a workspace folder the current project (multi-root). */
  selectWorkspaceProject(name: string): Promise<void>;
  /** Plan mode: the mode for the next messages, and the plan's actions. */
  setMode(mode: AgentMode): Promise<void>;
  openPlan(planId: string): Promise<void>;
  executePlan(planId: string): Promise<void>;
  /** Resolves true when the feedback was taken (else the error is shown and the text kept). */
  refinePlan(planId: string, feedback: string): Promise<boolean>;
  discardPlan(planId: string): Promise<void>;
  /** Reports a problem inside the webview to the host's log. */
  log: LogFn;
  dispose(): void;
}

const FILE_SEARCH_LIMIT = 20;
const SESSIONS_PAGE = 50;

/**
 * Wires a webview bus to the store: listeners and the approval handler first, then
 * `ready`, so nothing the host sends in answer can be missed.
 */
export function createUiBridge(bus: WebviewBus, store: ChatStore, log: LogFn): UiBridge {
  const unsubscribe = [
    bus.on('snapshot', (snapshot) => store.replace(snapshot)),
    bus.on('textDelta', ({ messageId, delta }) => store.textDelta(messageId, delta)),
    bus.on('reasoningDelta', ({ messageId, delta }) => store.reasoningDelta(messageId, delta)),
    bus.on('message', ({ message }) => store.upsertMessage(message)),
    bus.on('toolUse', (event) => store.addToolUse(event)),
    bus.on('toolState', (event) => store.setToolState(event)),
    bus.on('toolResult', (event) => store.setToolResult(event)),
    bus.on('toolOutput', (event) => store.setToolOutput(event)),
    bus.on('messagePatch', (data) => store.apply({ type: 'messagePatch', data })),
    bus.on('partPatch', (data) => store.apply({ type: 'partPatch', data })),
    bus.on('toolPatch', (data) => store.apply({ type: 'toolPatch', data })),
    bus.on('usage', (usage) => store.setUsage(usage)),
    bus.on('retry', ({ attempt, maxAttempts, error }) => store.setRetry({ attempt, maxAttempts, error })),
    bus.on('rules', ({ rules }) => store.setRules(rules)),
    bus.on('contextTrimmed', (trimmed) => store.setTrimmed(trimmed)),
    bus.on('error', (error) => store.addError(error)),
    bus.on('state', (state) => store.setRunState(state)),
    bus.on('todos', ({ items }) => store.setTodos(items)),
    bus.on('mcp.status', (mcp) => store.setMcp(mcp)),
    bus.on('session', (session) => store.setSession(session)),
    bus.on('config', (config) => store.setConfig(config)),
    bus.on('composer', (prefill) => store.prefillComposer(prefill)),
    bus.on('view.show', ({ panel }) => store.showPanel(panel)),
    bus.on('workspaceProjects', (projects) => store.setWorkspaceProjects(projects)),
    bus.on('plan', (event) => store.setPlan(event)),
    bus.on('sessions.activity', (event) => store.setSessionActivity(event)),
    bus.handle('toolApproval', (request, { signal }) => store.openApproval(request, signal)),
  ];
  bus.emit('ready', { protocolVersion: PROTOCOL_VERSION });

  async function call<M extends HostMethod>(
    method: M,
    params: ParamsIn<HostSide, M>,
    what: string,
  ): Promise<ResultOut<HostSide, M> | undefined> {
    try {
      return await bus.request(method, params);
    } catch (err) {
      log('warn', `${method} failed: ${errorMessage(err)}`);
      store.addError(requestErrorToUi(what, err));
      return undefined;
    }
  }

  const send: UiBridge['send'] = (input) => {
    const params: ParamsIn<HostSide, 'session.send'> = { text: input.text };
    if (input.images?.length) params.images = input.images;
    if (input.mentions?.length) params.mentions = input.mentions;
    if (input.mode) params.mode = input.mode;
    return call('session.send', params, l10n.t('Sending the message'));
  };

  return {
    send,
    async cancel() {
      await call('session.cancel', {}, l10n.t('Stopping the run'));
    },
    async newChat() {
      store.showPanel('chat');
      await call('session.new', {}, l10n.t('Starting a new chat'));
    },
    async compact() {
      const result = await call('session.compact', {}, l10n.t('Compacting the conversation'));
      if (!result || result.status === 'compacted') return;
      // A failed summary already says why on its divider (the last message).
      const last = store.getMessage(store.getIds().at(-1) ?? '');
      const onDivider = last?.status === 'error' && last.parts[0]?.type === 'compaction';
      if (!onDivider) store.addError({ code: 'internal', message: result.message, retryable: false });
    },
    async listSessions(query, offset = 0) {
      const trimmed = query.trim();
      const params = trimmed ? { query: trimmed, limit: SESSIONS_PAGE, offset } : { limit: SESSIONS_PAGE, offset };
      return call('sessions.list', params, l10n.t('Listing past chats'));
    },
    async renameSession(id, title) {
      return (await call('sessions.rename', { id, title }, l10n.t('Renaming the chat')))?.title;
    },
    async deleteSession(id) {
      return (await call('sessions.delete', { id }, l10n.t('Deleting the chat')))?.deleted === true;
    },
    async exportSession(id, format) {
      await call('sessions.export', { id, format }, format === 'json' ? l10n.t('Exporting the chat to JSON') : l10n.t('Exporting the chat to Markdown'));
    },
    async editAndResend(messageId, text) {
      await call('session.editAndResend', { messageId, text }, l10n.t('Sending the edited message'));
    },
    async switchBranch(messageId, index) {
      await call('session.switchBranch', { messageId, index }, l10n.t('Switching to the other version'));
    },
    async loadEarlier() {
      await call('session.loadEarlier', {}, l10n.t('Loading the earlier messages'));
    },
    async resume(id) {
      const resumed = await call('sessions.resume', { id }, l10n.t('Opening the chat'));
      if (resumed) store.showPanel('chat');
    },
    getConfig: () => call('config.get', {}, l10n.t('Reading the settings')),
    setConfig: (params) => call('config.set', params, l10n.t('Changing {0}', params.key)),
    listModels: () => call('models.list', {}, l10n.t('Listing models')),
    async searchFiles(query) {
      const found = await call('files.search', { query, limit: FILE_SEARCH_LIMIT }, l10n.t('Searching files'));
      return found?.results;
    },
    async openLink(url) {
      if (!/^https?:\/\//i.test(url)) {
        store.addError({ code: 'internal', message: l10n.t('Only http(s) links open from the chat: {0}', url), retryable: false });
        return;
      }
      await call('link.open', { url }, l10n.t('Opening the link'));
    },
    async insertCode(code, language) {
      await call('code.insert', language ? { code, language } : { code }, l10n.t('Inserting the code'));
    },
    async openFile(path, range) {
      await call('file.open', range ? { path, range } : { path }, l10n.t('Opening {0}', path));
    },
    async openDiff(approvalId) {
      await call('diff.open', { approvalId }, l10n.t('Showing the diff'));
    },
    undoChange(changeId, force) {
      return call('change.undo', force ? { changeId, force } : { changeId }, l10n.t('Undoing the change'));
    },
    undoCommand(toolCallId, force) {
      return call('command.undo', force ? { toolCallId, force } : { toolCallId }, l10n.t('Undoing the command'));
    },
    async openCommandDiff(changeId) {
      return (await call('commandChange.diff', { changeId }, l10n.t('Showing the diff')))?.opened === true;
    },
    restoreFiles(messageId, force) {
      return call('changes.restore', force ? { messageId, force } : { messageId }, l10n.t('Restoring files'));
    },
    async openSettings(query) {
      await call('settings.open', query ? { query } : {}, l10n.t('Opening settings'));
    },
    async runCommand(command, args) {
      await call('command.run', args ? { command, args } : { command }, l10n.t('Running the command'));
    },
    async mcpPrompt(server, prompt, args) {
      return (await call('mcp.prompt', { server, prompt, args }, l10n.t('Getting the MCP prompt {0}', prompt)))?.text;
    },
    respondToApproval(id, result) {
      store.answerApproval(id, result);
    },
    async retryLast() {
      const last = store.lastUserMessage();
      if (!last) return;
      const text = last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
      const mentions = last.parts.flatMap((part) => (part.type === 'mention' ? [part.mention] : []));
      const images = last.parts.flatMap((part) =>
        part.type === 'image' && part.data ? [{ mediaType: part.mediaType, data: part.data }] : [],
      );
      if (!text.trim() && images.length === 0) return;
      await send({ text, images, mentions });
    },
    dismissError: (id) => store.dismissError(id),
    reportProblem(message) {
      log('warn', message);
      store.addError({ code: 'internal', message, retryable: false });
    },
    showPanel: (panel) => store.showPanel(panel),
    async selectWorkspaceProject(name) {
      const projects = await call('workspaceProject.select', { name }, l10n.t('Switching to the project {0}', name));
      if (projects) store.setWorkspaceProjects(projects);
    },
    async setMode(mode) {
      await call('mode.set', { mode }, l10n.t('Switching mode'));
    },
    async openPlan(planId) {
      await call('plan.open', { planId }, l10n.t('Opening the plan'));
    },
    async executePlan(planId) {
      await call('plan.execute', { planId }, l10n.t('Executing the plan'));
    },
    async refinePlan(planId, feedback) {
      return (await call('plan.refine', { planId, feedback }, l10n.t('Refining the plan'))) !== undefined;
    },
    async discardPlan(planId) {
      await call('plan.discard', { planId }, l10n.t('Discarding the plan'));
    },
    log,
    dispose() {
      for (const stop of unsubscribe) stop();
      bus.dispose();
    },
  };
}

/**
 * The page's bridge: a bus over VS Code's postMessage. Warnings and errors also go to
 * the host's log, where someone debugging a report can find them.
 */
export function startUiBridge(store: ChatStore): UiBridge {
  let bus: WebviewBus | undefined;
  let reporting = false;
  const log: LogFn = (level, message) => {
    const line = `[keel webview] ${message}`;
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else console.debug(line);
    if (!bus || reporting || (level !== 'warn' && level !== 'error')) return;
    reporting = true; // emitting may log; do not loop
    try {
      bus.emit('log', { level, message: message.slice(0, 4000) });
    } finally {
      reporting = false;
    }
  };
  bus = createWebviewBus(createWebviewTransport(vscodeApi(), window), log);
  return createUiBridge(bus, store, log);
}
