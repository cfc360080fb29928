import { createHostBus } from '../protocol/buses';
import type { HostBus } from '../protocol/buses';
import { DeltaCoalescer } from '../protocol/deltaCoalescer';
import type { LogFn } from '../protocol/log';
import type { HostWebview } from '../protocol/postMessageTransport';
import { createHostTransport } from '../protocol/postMessageTransport';
import { createReadyGate } from '../protocol/readyGate';
import type { ChatController } from './chatController';
import type { EditorServices } from './editorServices';

/** More of the page's protocol, served by a feature of its own (MCP); returns what stops it. */
export type ViewExtension = (link: { bus: HostBus; outbox: DeltaCoalescer; isReady(): boolean; onReady(listener: () => void): () => void }) => () => void;

/** A WebviewView, as far as the bridge needs it. */
export interface ChatViewLike {
  readonly visible: boolean;
  onDidChangeVisibility(listener: () => void): { dispose(): void };
  onDidDispose(listener: () => void): { dispose(): void };
}

/**
 * The host end of one chat page: a fresh bus behind a ready gate for every page VS Code
 * creates (first show, re-show after dispose, reload), with the requests answered by the
 * controller (the conversation) and the editor services. Returns what tears it down.
 */
export function connectChatView(
  view: ChatViewLike,
  webview: HostWebview,
  controller: ChatController,
  services: EditorServices,
  log: LogFn,
  extensions: readonly ViewExtension[] = [],
): { dispose(): void } {
  const gate = createReadyGate(createHostTransport(webview, log), log);
  const bus = createHostBus(gate.transport, log);
  const outbox = new DeltaCoalescer(bus);
  registerHandlers(bus, controller, services);
  const stopLog = bus.on('log', ({ level, message }) => log(level, `webview: ${message}`));

  const detach = controller.attachView({ outbox, isReady: () => gate.isReady() });
  const stopReady = gate.onReady(() => controller.viewReady());
  const stopExtensions = extensions.map((extend) => extend({ bus, outbox, isReady: () => gate.isReady(), onReady: (l) => gate.onReady(l) }));
  // A hidden webview's page is torn down: post nothing until the next page says ready.
  const visibility = view.onDidChangeVisibility(() => {
    if (!view.visible) gate.close();
  });

  let disposed = false;
  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    visibility.dispose();
    stopReady();
    for (const stop of stopExtensions) stop();
    stopLog();
    detach();
    outbox.dispose();
    gate.dispose();
    bus.dispose();
  };
  const onDispose = view.onDidDispose(() => {
    onDispose.dispose();
    dispose();
  });
  return { dispose };
}

function registerHandlers(bus: HostBus, controller: ChatController, services: EditorServices): void {
  bus.handle('session.send', (params) => controller.send(params));
  bus.handle('session.cancel', () => controller.cancel());
  bus.handle('session.new', () => controller.newSession());
  bus.handle('session.compact', () => controller.compact());
  bus.handle('sessions.list', (params) => controller.listSessions(params));
  bus.handle('sessions.resume', ({ id }) => controller.resumeSession(id));
  bus.handle('sessions.rename', ({ id, title }) => controller.renameSession(id, title));
  bus.handle('sessions.delete', ({ id }) => controller.deleteSession(id));
  bus.handle('sessions.export', ({ id, format }) => controller.exportSession(id, format));
  bus.handle('session.editAndResend', (params) => controller.editAndResend(params));
  bus.handle('session.switchBranch', (params) => controller.switchBranch(params));
  bus.handle('session.loadEarlier', () => controller.loadEarlier());
  bus.handle('config.get', () => services.configGet());
  bus.handle('config.set', (params) => services.configSet(params));
  bus.handle('models.list', () => controller.listModels());
  bus.handle('workspaceProject.select', ({ name }) => controller.selectWorkspaceProject(name));
  bus.handle('files.search', async ({ query, limit }, { signal }) => ({
    results: await services.searchFiles(query, limit ?? 50, signal),
  }));
  bus.handle('file.open', async ({ path, range }) => ({ opened: await services.openFile(path, range) }));
  bus.handle('link.open', async ({ url }) => ({ opened: await services.openLink(url) }));
  bus.handle('code.insert', async ({ code }) => ({ inserted: await services.insertCode(code) }));
  bus.handle('diff.open', async ({ approvalId }) => {
    const change = controller.approvalChange(approvalId);
    return { opened: change ? await services.openDiff(approvalId, change) : false };
  });
  bus.handle('change.undo', (params) => controller.undoChange(params));
  bus.handle('changes.restore', (params) => controller.restoreFiles(params));
  bus.handle('command.undo', (params) => controller.undoCommand(params));
  bus.handle('commandChange.diff', async ({ changeId }) => {
    const diff = await controller.commandDiff(changeId);
    return { opened: diff ? await services.openTextDiff(diff) : false };
  });
  bus.handle('settings.open', async ({ query }) => ({ opened: await services.openSettings(query) }));
  bus.handle('command.run', async ({ command, args }) => ({ ran: await services.runCommand(command, args) }));
  bus.handle('mode.set', ({ mode }) => controller.setMode(mode));
  bus.handle('plan.open', async ({ planId }) => ({ opened: await controller.plans.open(planId) }));
  bus.handle('plan.execute', ({ planId }) => controller.plans.execute(planId));
  bus.handle('plan.refine', ({ planId, feedback }) => controller.plans.refine(planId, feedback));
  bus.handle('plan.discard', ({ planId }) => controller.plans.discard(planId));
}
