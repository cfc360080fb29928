/// <reference types="mocha" />
// The start every chat browser test shares, as one call inside describe(): the scripted model
// server, the workspace settings pointing Keel at it (before the window opens, so the first
// snapshot already has a model), the workbench in Chromium, and, unless a test opens it
// itself, Keel's chat view. Afterwards the browser closes, the server stops and the run's
// stored conversations go.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer, ScriptedServerOptions } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { e2eEnv } from '../harness/e2eEnv.ts';
import { useWorkbench } from '../harness/useWorkbench.ts';
import { ChatView } from './chatView.ts';
import { removeStoredConversations, setModelSettings } from './workspaceSettings.ts';

export interface ChatRigOptions {
  /** The first script of the model server (tests usually load() their own). */
  scenario?: ScriptedServerOptions['scenario'];
  /** 'scripted' (default) points keel.baseUrl/keel.model at the server; 'none' leaves the model unset. */
  model?: 'scripted' | 'none';
  /** More of the workspace to set up before the window opens (rules, MCP config, other settings). */
  prepare?: (rig: { workspace: string; server: ScriptedServer }) => void | Promise<void>;
  /** Open the chat view before the first test (default); false leaves it to the test. */
  openChat?: boolean;
  /** Start every test on a new, empty chat (the view stays open between tests). */
  newChatEachTest?: boolean;
  /** A folder of the workspace (by name) that exists before every test and is removed at the end: `rig.scratch`. */
  scratchDir?: string;
  /** VS Code's display language (`zh-cn`); English when unset. */
  locale?: string;
  /** Undo what prepare() did; runs after the browser closed, before the server stops. */
  cleanup?: (rig: { workspace: string }) => void | Promise<void>;
}

export interface ChatRig {
  readonly workspace: string;
  readonly page: Page;
  readonly server: ScriptedServer;
  readonly chat: ChatView;
  /** The absolute path of options.scratchDir. */
  readonly scratch: string;
}

export function useChatRig(options: ChatRigOptions = {}): ChatRig {
  const { workspace } = e2eEnv();
  let server: ScriptedServer | undefined;
  let chat: ChatView | undefined;

  // Registered before useWorkbench's hooks, so the settings exist when the window opens.
  before(async () => {
    server = await startScriptedServer(options.scenario ? { scenario: options.scenario } : {});
    setModelSettings(workspace, options.model === 'none' ? undefined : { baseURL: server.baseURL });
    await options.prepare?.({ workspace, server });
  });

  const wb = useWorkbench(options.locale ? { locale: options.locale } : {});

  if (options.openChat ?? true) {
    before(async function () {
      this.timeout(90_000);
      await rig.chat.open();
    });
  }

  if (options.newChatEachTest) {
    beforeEach(async () => {
      if (await rig.chat.messages().count()) await rig.chat.newChat();
    });
  }

  const scratch = join(workspace, options.scratchDir ?? '');
  if (options.scratchDir) {
    beforeEach(() => {
      mkdirSync(scratch, { recursive: true });
    });
  }

  after(async () => {
    if (options.scratchDir) rmSync(scratch, { recursive: true, force: true });
    await options.cleanup?.({ workspace });
    await server?.close();
    removeStoredConversations(workspace);
  });

  const rig: ChatRig = {
    workspace,
    get scratch(): string {
      if (!options.scratchDir) throw new Error('useChatRig({ scratchDir }) names the folder');
      return scratch;
    },
    get page(): Page {
      return wb.page;
    },
    get server(): ScriptedServer {
      if (!server) throw new Error('the scripted server is not started: use rig.server inside tests or hooks');
      return server;
    },
    get chat(): ChatView {
      chat ??= new ChatView(wb.page);
      return chat;
    },
  };
  return rig;
}
