import * as l10n from '@vscode/l10n';
import { errorMessage } from '../../src/protocol/busError';
import { createWebviewBus } from '../../src/protocol/buses';
import type { WebviewBus } from '../../src/protocol/buses';
import type { HostSide } from '../../src/protocol/catalogue';
import type { LogFn } from '../../src/protocol/log';
import { createWebviewTransport } from '../../src/protocol/postMessageTransport';
import type { AgentMode, SessionSummary } from '../../src/protocol/sessionState';
import type { MethodOf, ParamsIn, ResultOut } from '../../src/protocol/side';
import type { ToolApprovalAnswer } from '../../src/protocol/toolApproval';
import type { ImageAttachment, Mention } from '../../src/protocol/uiMessage';
import { PROTOCOL_VERSION } from '../../src/protocol/version';
import type { Panel } from '../store/chatMeta';
import type { ChatStore } from '../store/chatStore';
import { requestErrorToUi } from './requestError';
import { requestLabel } from './requestLabels';
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
 * A host method of the catalogue (src/protocol/hostMethods.ts) as the page calls it, typed by
 * its schemas. A request that fails puts a clear error in the store and resolves to undefined,
 * so a component never has to catch.
 */
export type HostCall = <M extends HostMethod>(method: M, params: ParamsIn<HostSide, M>) => Promise<ResultOut<HostSide, M> | undefined>;

/**
 * What the components may do: any host method through `call`, and the few actions that do
 * more in the page than one request (the store, the panel, paging, checks before sending).
 */
export interface UiBridge {
  call: HostCall;
  send(input: SendInput): Promise<{ messageId: string; queued: boolean } | undefined>;
  /** Shows the chat panel and starts a new conversation. */
  newChat(): Promise<void>;
  /** `/compact`: summarize the conversation so far; what went wrong (or that there was nothing) is shown. */
  compact(): Promise<void>;
  /** One page of past chats, newest first; `offset` pages in more. */
  listSessions(query: string, offset?: number): Promise<{ sessions: SessionSummary[]; total: number } | undefined>;
  resume(id: string): Promise<void>;
  /** Only http(s) links: anything else is shown as an error without asking the host. */
  openLink(url: string): Promise<void>;
  respondToApproval(id: string, result: ToolApprovalAnswer): void;
  /** Sends the newest user message again (after an error). */
  retryLast(): Promise<void>;
  dismissError(id: number): void;
  /** Shows a failure that happened inside the webview (e.g. the clipboard refused). */
  reportProblem(message: string): void;
  showPanel(panel: Panel): void;
  /** Makes a workspace folder the current project (multi-root). */
  selectWorkspaceProject(name: string): Promise<void>;
  /** Reports a problem inside the webview to the host's log. */
  log: LogFn;
  dispose(): void;
}

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
    bus.on('subagentStep', (data) => store.apply({ type: 'subagentStep', data })),
    bus.on('mcpRequest', (data) => store.apply({ type: 'mcpRequest', data })),
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

  const call: HostCall = async (method, params) => {
    try {
      return await bus.request(method, params);
    } catch (err) {
      log('warn', `${method} failed: ${errorMessage(err)}`);
      store.addError(requestErrorToUi(requestLabel(method, params), err));
      return undefined;
    }
  };

  const send: UiBridge['send'] = (input) => {
    const params: ParamsIn<HostSide, 'session.send'> = { text: input.text };
    if (input.images?.length) params.images = input.images;
    if (input.mentions?.length) params.mentions = input.mentions;
    if (input.mode) params.mode = input.mode;
    return call('session.send', params);
  };

  return {
    call,
    send,
    async newChat() {
      store.showPanel('chat');
      await call('session.new', {});
    },
    async compact() {
      const result = await call('session.compact', {});
      if (!result || result.status === 'compacted') return;
      // A failed summary already says why on its divider (the last message).
      const last = store.getMessage(store.getIds().at(-1) ?? '');
      const onDivider = last?.status === 'error' && last.parts[0]?.type === 'compaction';
      if (!onDivider) store.addError({ code: 'internal', message: result.message, retryable: false });
    },
    async listSessions(query, offset = 0) {
      const trimmed = query.trim();
      const params = trimmed ? { query: trimmed, limit: SESSIONS_PAGE, offset } : { limit: SESSIONS_PAGE, offset };
      return call('sessions.list', params);
    },
    async resume(id) {
      const resumed = await call('sessions.resume', { id });
      if (resumed) store.showPanel('chat');
    },
    async openLink(url) {
      if (!/^https?:\/\//i.test(url)) {
        store.addError({ code: 'internal', message: l10n.t('Only http(s) links open from the chat: {0}', url), retryable: false });
        return;
      }
      await call('link.open', { url });
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
      const projects = await call('workspaceProject.select', { name });
      if (projects) store.setWorkspaceProjects(projects);
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
