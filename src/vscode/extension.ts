import * as vscode from 'vscode';
import { ChatViewProvider } from './view/chatViewProvider';
import { registerCommands } from './commands';
import { KeelCodeActions } from './editor/keelCodeActions';
import { TerminalWatch } from './terminal/terminalWatch';
import { openHeadlessChatPage } from './view/headlessChatView';
import { KEEL_API_VERSION } from './keelApi';
import type { KeelApi } from './keelApi';
import { recordingChannel } from './recordingChannel';
import type { KeelRuntime } from './keelRuntime';
import { PluginRegistry } from '../chat/runtime/pluginRegistry';
import type { KeelTestApi } from './testHooks';

let runtime: Promise<KeelRuntime> | undefined;
let loaded: KeelRuntime | undefined;

/**
 * Registers the view, the commands and the log channel, and nothing heavier: the core, the
 * AI SDK and the bridge load on first use (the chat view opening, or a command).
 */
export function activate(context: vscode.ExtensionContext): KeelApi {
  const started = performance.now();
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  const logged: string[] = [];
  const channel = vscode.window.createOutputChannel('Keel', { log: true });
  const log = testing ? recordingChannel(channel, logged) : channel;
  const plugins = new PluginRegistry();

  const getRuntime = (): Promise<KeelRuntime> => {
    runtime ??= import('./keelRuntime').then(async ({ KeelRuntime }) => {
      const created = new KeelRuntime(context, log, plugins);
      loaded = created;
      await created.restoreOpenSession();
      return created;
    });
    return runtime;
  };

  const terminalWatch = new TerminalWatch('keel.terminal.fixLastCommand', log);
  const provider = new ChatViewProvider(
    context.extensionUri,
    async (view, webview) => (await getRuntime()).connectView(view, webview, log),
    log,
  );
  context.subscriptions.push(
    channel,
    terminalWatch,
    vscode.window.registerWebviewViewProvider('keel.chat', provider),
    ...registerCommands({ context, log, runtime: getRuntime, loadedRuntime: () => loaded, terminalWatch }),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new KeelCodeActions(), { providedCodeActionKinds: KeelCodeActions.kinds }),
  );
  log.info(`${context.extension.id} activated in ${(performance.now() - started).toFixed(1)} ms`);

  const api: KeelApi = {
    apiVersion: KEEL_API_VERSION,
    registerPlugin(plugin) {
      return new vscode.Disposable(plugins.register(plugin));
    },
  };
  if (!testing) return api;
  // Only in the extension's own test runs: a chat page without a browser (see testHooks.ts).
  const testApi: KeelTestApi = {
    ...api,
    testHooks: {
      openChatPage: () => openHeadlessChatPage(provider, 'keel.chat'),
      setMcpApprovalPrompt: async (prompt) => (await getRuntime()).mcp.setPrompt(prompt),
      setSignInBrowser: async (open) => (await getRuntime()).mcp.setSignInBrowser(open),
      setWorktreePrompts: async (prompts) => {
        (await getRuntime()).worktreeChats.prompts = prompts;
      },
      logLines: () => [...logged],
      contextKeys: async () => (await getRuntime()).contextKeys.values(),
      viewBadge: async () => (await getRuntime()).viewBadge(),
    },
  };
  return testApi;
}

/** Ends a run in progress and releases the session's lock before the host goes away. */
export async function deactivate(): Promise<void> {
  const current = loaded;
  loaded = undefined;
  runtime = undefined;
  await current?.shutdown();
}
