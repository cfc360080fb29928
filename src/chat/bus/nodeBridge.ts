import { createHostBus } from '../../protocol/buses';
import type { HostBus } from '../../protocol/buses';
import { DeltaCoalescer } from './deltaCoalescer';
import type { LogFn } from '../../protocol/log';
import type { HostWebview } from '../../protocol/postMessageTransport';
import { createHostTransport } from '../../protocol/postMessageTransport';
import { createReadyGate } from './readyGate';
import type { ChatController } from '../chatController';
import type { EditorServices } from './editorServices';
import { hostHandlers, registerHostHandlers } from './hostHandlers';

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
  registerHostHandlers(bus, hostHandlers(controller, services));
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
