import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsHost } from '../../../src/core/fsHost';
import { createWebviewBus } from '../../../src/protocol/buses';
import type { WebviewBus } from '../../../src/protocol/buses';
import type { EventData } from '../../../src/protocol/catalogue';
import type { LogFn } from '../../../src/protocol/log';
import { createPairTransport } from '../../../src/protocol/pairTransport';
import type { HostWebview } from '../../../src/protocol/postMessageTransport';
import type { Snapshot } from '../../../src/protocol/sessionState';
import type { ToolApprovalRequest, ToolApprovalAnswer } from '../../../src/protocol/toolApproval';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { CONVERSATION_EVENTS } from '../../../src/conversation/conversationEvent';
import type { ConversationEvent } from '../../../src/conversation/conversationEvent';
import { ConversationMirror } from '../../../src/conversation/conversationMirror';
import { PROTOCOL_VERSION } from '../../../src/protocol/version';
import { ChatController } from '../../../src/chat/chatController';
import type { ChatControllerOptions } from '../../../src/chat/chatControllerOptions';
import { CoreLoader } from '../../../src/chat/runtime/coreLoader';
import type { CoreInputs } from '../../../src/chat/runtime/coreLoader';
import { WorktreeCores } from '../../../src/chat/sessions/worktreeCores';
import type { EditorServices } from '../../../src/chat/bus/editorServices';
import { connectChatView } from '../../../src/chat/bus/nodeBridge';
import { mcpViewExtension } from '../../../src/chat/bus/mcpView';
import type { McpManager } from '../../../src/core/mcp';
import type { KeelSettings } from '../../../src/chat/settings/settingsLayer';

/** Lets pair-transport deliveries and handler hops run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * What a webview would hold: built only from the snapshot and the small events after it, folded
 * by the same mirror the page uses, so comparing it with the host's state checks that the events
 * say everything.
 */
export class MirrorStore {
  snapshot: Snapshot | undefined;
  readonly mirror = new ConversationMirror();
  events: { name: string; data: unknown }[] = [];

  constructor(bus: WebviewBus) {
    bus.on('snapshot', (s) => {
      this.snapshot = s;
      this.mirror.reset(structuredClone(s.messages));
      this.record('snapshot', s);
    });
    for (const name of CONVERSATION_EVENTS) {
      bus.on(name, (data: EventData<typeof name>) => {
        this.mirror.apply({ type: name, data } as ConversationEvent);
        this.record(name, name === 'message' ? (data as EventData<'message'>).message : data);
      });
    }
    for (const name of ['usage', 'retry', 'error', 'state', 'todos', 'session', 'config', 'view.show', 'workspaceProjects'] as const) {
      bus.on(name, (data: EventData<typeof name>) => this.record(name, data));
    }
  }

  get messages(): UiMessage[] {
    return this.mirror.messages();
  }

  named(name: string): unknown[] {
    return this.events.filter((e) => e.name === name).map((e) => e.data);
  }

  private record(name: string, data: unknown): void {
    this.events.push({ name, data });
  }
}

const unusedServices: EditorServices = {
  configGet: () => Promise.reject(new Error('not in this test')),
  configSet: () => Promise.reject(new Error('not in this test')),
  searchFiles: async () => [],
  openFile: async () => false,
  openLink: async () => false,
  insertCode: async () => false,
  openDiff: async () => false,
  openTextDiff: async () => false,
  openSettings: async () => false,
  runCommand: async () => false,
  mentionsFromUris: () => Promise.reject(new Error('not in this test')),
};

export interface ChatRig {
  workspace: string;
  home: string;
  controller: ChatController;
  loader: CoreLoader;
  /** The cores of worktree conversations (rigs opened with `worktrees`); a deleted conversation's worktree stays. */
  worktrees?: WorktreeCores;
  logs: string[];
  settings: KeelSettings;
  /** Opens a page: a new webview bus that says ready. */
  openPage(answer?: (request: ToolApprovalRequest) => Promise<ToolApprovalAnswer> | ToolApprovalAnswer): Page;
  dispose(): Promise<void>;
}

export interface Page {
  bus: WebviewBus;
  store: MirrorStore;
  approvals: ToolApprovalRequest[];
  /** The page reloads: the same view, a new page that says ready again (answering approvals as given). */
  reload(answer?: (request: ToolApprovalRequest) => Promise<ToolApprovalAnswer> | ToolApprovalAnswer): Page;
  hide(): void;
  close(): void;
}

/**
 * `extraFolders`: names of more workspace folders (created empty next to `ws`), for a multi-root rig.
 * `worktrees`: the controller opens conversations in git worktrees (`rig.worktrees`).
 */
export function createChatRig(
  settings: KeelSettings,
  opts: {
    trusted?: boolean;
    extraFolders?: string[];
    worktrees?: boolean;
    controller?: Pick<ChatControllerOptions, 'sessionUi' | 'generateTitles' | 'maxConcurrentRuns' | 'onApprovalNeeded' | 'onApprovalsWaiting'>;
    /** MCP servers for the core, and their side of the page (status, prompts, request cards). */
    mcp?: McpManager;
  } = {},
): ChatRig {
  const root = mkdtempSync(join(tmpdir(), 'keel-chat-'));
  const workspace = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(workspace);
  mkdirSync(home);
  writeFileSync(join(workspace, 'hello.txt'), 'hello\n');
  const extra = (opts.extraFolders ?? []).map((name) => ({ path: join(root, name), name }));
  for (const f of extra) mkdirSync(f.path);
  const logs: string[] = [];
  const log: LogFn = (level, message) => logs.push(`${level}: ${message}`);
  const host = createFsHost({ log });
  const rig: Partial<ChatRig> = { workspace, home, logs, settings };
  const inputs: CoreInputs = {
    folders: () => [{ path: workspace, name: 'ws' }, ...extra],
    workspaceFile: () => undefined,
    trusted: () => opts.trusted ?? true,
    settings: () => ({ settings: rig.settings!, problems: [], fromWorkspace: {}, userModels: {}, narrowing: [] }),
    apiKey: async () => undefined,
    plugins: () => [],
    host,
    env: { KEEL_HOME: home },
    ...(opts.mcp ? { mcp: () => opts.mcp! } : {}),
  };
  const loader = new CoreLoader(inputs, log);
  const worktrees = opts.worktrees ? new WorktreeCores({ workspace: loader, inputs, log }) : undefined;
  if (worktrees) rig.worktrees = worktrees;
  const controller: ChatController = new ChatController({
    core: loader,
    log,
    trusted: () => opts.trusted ?? true,
    ...(worktrees ? { worktrees: { coreFor: (id: string) => worktrees.coreFor(id), deleted: async () => undefined } } : {}),
    ...opts.controller,
  });
  const connections: { dispose(): void }[] = [];

  const openPage = (answer?: (r: ToolApprovalRequest) => Promise<ToolApprovalAnswer> | ToolApprovalAnswer): Page => {
    const [hostEnd, pageEnd] = createPairTransport();
    let visible = true;
    const visibility = new Set<() => void>();
    const disposal = new Set<() => void>();
    const webview: HostWebview = {
      postMessage: (m) => {
        hostEnd.send(m);
        return true;
      },
      onDidReceiveMessage: (l) => ({ dispose: hostEnd.onMessage(l) }),
    };
    const view = {
      get visible() {
        return visible;
      },
      onDidChangeVisibility: (l: () => void) => (visibility.add(l), { dispose: () => visibility.delete(l) }),
      onDidDispose: (l: () => void) => (disposal.add(l), { dispose: () => disposal.delete(l) }),
    };
    connections.push(connectChatView(view, webview, controller, unusedServices, log, opts.mcp ? [mcpViewExtension(opts.mcp, controller.mcpCards)] : []));

    const makePage = (answer: ((r: ToolApprovalRequest) => Promise<ToolApprovalAnswer> | ToolApprovalAnswer) | undefined): Page => {
      const bus = createWebviewBus(pageEnd, log);
      const store = new MirrorStore(bus);
      const approvals: ToolApprovalRequest[] = [];
      bus.handle('toolApproval', async (request, { signal }) => {
        approvals.push(request);
        if (!answer) {
          // Waits until the host withdraws it (cancel) or the page goes away.
          return new Promise<ToolApprovalAnswer>((_, reject) => signal.addEventListener('abort', () => reject(new Error('withdrawn'))));
        }
        return answer(request);
      });
      bus.emit('ready', { protocolVersion: PROTOCOL_VERSION });
      const page: Page = {
        bus,
        store,
        approvals,
        reload: (nextAnswer) => {
          bus.dispose();
          visible = true;
          return makePage(nextAnswer);
        },
        hide: () => {
          visible = false;
          for (const l of [...visibility]) l();
          bus.dispose();
        },
        close: () => {
          bus.dispose();
          for (const l of [...disposal]) l();
        },
      };
      return page;
    };
    return makePage(answer);
  };

  return Object.assign(rig, {
    controller,
    loader,
    openPage,
    async dispose() {
      for (const c of connections) c.dispose();
      await controller.dispose();
      await worktrees?.dispose();
      await loader.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  }) as ChatRig;
}

/** The records of the session the page shows last, as its log holds them (one workspace per rig). */
export function loggedRecords<R>(rig: ChatRig, page: Page): R[] {
  const session = (page.store.named('session').at(-1) as { id: string }).id;
  const [key] = readdirSync(join(rig.home, 'projects'));
  return readFileSync(join(rig.home, 'projects', key!, 'sessions', `${session}.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as R);
}
