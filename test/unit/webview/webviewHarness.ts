import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { vi } from 'vitest';
import { createHostBus, createWebviewBus } from '../../../src/protocol/buses';
import type { SlashEntry } from '../../../src/protocol/hostMethods';
import type { HostBus } from '../../../src/protocol/buses';
import type { LogFn } from '../../../src/protocol/log';
import { createPairTransport } from '../../../src/protocol/pairTransport';
import type { Snapshot } from '../../../src/protocol/sessionState';
import type { ModelInfo } from '../../../src/protocol/uiConfig';
import type { UiMessage } from '../../../src/protocol/uiMessage';
import { BridgeContext } from '../../../webview/bridge/bridgeContext';
import { createUiBridge } from '../../../webview/bridge/uiBridge';
import type { UiBridge } from '../../../webview/bridge/uiBridge';
import { App } from '../../../webview/components/App';
import { ChatStore } from '../../../webview/store/chatStore';
import { StoreContext } from '../../../webview/store/storeContext';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Lets pair-transport deliveries and the handlers they start run to completion, inside act(). */
export async function settle(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  });
}

export function snapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    session: { id: 's-1', title: 'Fix the build' },
    messages: [],
    state: { running: false, mode: 'act', approvalMode: 'manual', model: 'gpt-x', queued: 0 },
    usage: null,
    pendingApprovals: [],
    todos: [],
    config: { modelConfigured: true, workspaceTrusted: true, problem: null },
    ...overrides,
  };
}

export function userMessage(id: string, text: string): UiMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }], status: 'done', createdAt: 1 };
}

export function assistantMessage(id: string, text: string, status: UiMessage['status'] = 'done'): UiMessage {
  return { id, role: 'assistant', parts: [{ type: 'text', text }], status, createdAt: 2 };
}

export interface MountedApp {
  host: HostBus;
  store: ChatStore;
  bridge: UiBridge;
  container: HTMLElement;
  log: ReturnType<typeof vi.fn<LogFn>>;
  /** Called with each `ready` the webview emits. */
  ready: ReturnType<typeof vi.fn>;
  byTestId(id: string): HTMLElement;
  allByTestId(id: string): HTMLElement[];
  queryByTestId(id: string): HTMLElement | null;
  unmount(): Promise<void>;
}

export interface MountOptions {
  /** What the host's models.list answers (the footer asks on every config change). */
  models?: ModelInfo[];
  /** What the host's setup.slashCommands answers (the composer asks when a `/` starts the draft). */
  slashCommands?: SlashEntry[];
}

/**
 * The real App, store and uiBridge, with a host bus on the other end of a pair transport
 * (the same JSON round trip as postMessage). Tests play the host: emit events, handle requests.
 */
export async function mountApp(options: MountOptions = {}): Promise<MountedApp> {
  const [hostEnd, webviewEnd] = createPairTransport();
  const log = vi.fn<LogFn>();
  const host = createHostBus(hostEnd, log);
  const ready = vi.fn();
  host.on('ready', ready);
  host.handle('models.list', () => ({ models: options.models ?? [{ id: 'gpt-x' }], current: 'gpt-x' }));
  host.handle('setup.slashCommands', () => ({ commands: options.slashCommands ?? [] }));
  const store = new ChatStore();
  const bridge = createUiBridge(createWebviewBus(webviewEnd, log), store, log);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => {
    root.render(
      createElement(
        StoreContext.Provider,
        { value: store },
        createElement(BridgeContext.Provider, { value: bridge }, createElement(App)),
      ),
    );
  });
  const queryByTestId = (id: string): HTMLElement | null => container.querySelector(`[data-testid="${id}"]`);
  return {
    host,
    store,
    bridge,
    container,
    log,
    ready,
    queryByTestId,
    byTestId(id) {
      const found = queryByTestId(id);
      if (!found) throw new Error(`no element with data-testid="${id}"`);
      return found;
    },
    allByTestId: (id) => [...container.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)],
    async unmount() {
      await act(async () => root.unmount());
      bridge.dispose();
      host.dispose();
      container.remove();
    },
  };
}

/** Types into a React-controlled textarea the way the browser does: set the value, fire `input`. */
export async function typeInto(element: HTMLTextAreaElement, text: string): Promise<void> {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  if (!setValue) throw new Error('textarea has no value setter');
  await act(async () => {
    setValue.call(element, text);
    element.setSelectionRange(text.length, text.length);
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function pressKey(element: HTMLElement, init: KeyboardEventInit): Promise<boolean> {
  let notCancelled = true;
  await act(async () => {
    notCancelled = element.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
  });
  return notCancelled;
}

export async function click(element: Element): Promise<void> {
  await act(async () => {
    element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  });
}

/** Chooses an option of a `Select` as a person does with the mouse: open the list, click the option by its label. */
export async function chooseOption(picker: HTMLElement, label: string): Promise<void> {
  await click(picker);
  const list = document.getElementById(picker.getAttribute('aria-controls') ?? '');
  if (!list || list.hidden) throw new Error(`the picker "${picker.getAttribute('aria-label')}" did not open its list`);
  const option = [...list.querySelectorAll('[role="option"]')].find((o) => o.textContent === label);
  if (!option) throw new Error(`the picker "${picker.getAttribute('aria-label')}" has no option "${label}"`);
  await click(option);
}

/** The labels a `Select` offers, in order. */
export function optionLabels(picker: HTMLElement): string[] {
  const list = document.getElementById(picker.getAttribute('aria-controls') ?? '');
  return [...(list?.querySelectorAll('[role="option"]') ?? [])].map((option) => option.textContent ?? '');
}
