import { EARLY_MESSAGES, earlyViewOf } from '../../src/protocol/earlyView';
import type { EarlyView } from '../../src/protocol/earlyView';
import type { UiMessage } from '../../src/protocol/uiMessage';
import type { ChatStore } from '../store/chatStore';

/** Messages looked at to find EARLY_MESSAGES the early view keeps (tool results and marks are skipped). */
const TAIL = EARLY_MESSAGES * 2;

/**
 * Keeps the early view (the newest messages as text, see earlyView.ts) saved while the
 * conversation changes. A message that is still streaming is saved at most once per
 * `delayMs`, so a long reply costs one save a second; anything else (a message done, a
 * conversation opened) is saved at once, coalesced per task. Nothing happens while the
 * chat is idle. Returns a stop function.
 */
export function startEarlyViewSaver(store: ChatStore, save: (view: EarlyView) => void, delayMs = 1000): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let queued = false;
  let watched: (() => void)[] = [];

  const flush = (): void => {
    queued = false;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    // Before the first snapshot the store holds nothing worth keeping.
    if (!store.getMeta().ready) return;
    const messages = store
      .getIds()
      .slice(-TAIL)
      .map((id) => store.getMessage(id))
      .filter((message): message is UiMessage => message !== undefined);
    save(earlyViewOf(messages, store.getMeta().session.title ?? undefined));
  };
  const saveSoon = (): void => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      if (queued) flush();
    });
  };
  const changed = (id: string): void => {
    if (store.getMessage(id)?.status !== 'streaming') saveSoon();
    else if (timer === undefined && !queued) timer = setTimeout(flush, delayMs);
  };
  const watchTail = (): void => {
    for (const stop of watched) stop();
    watched = store
      .getIds()
      .slice(-TAIL)
      .map((id) => store.subscribeMessage(id, () => changed(id)));
    saveSoon();
  };

  const stopIds = store.subscribeIds(watchTail);
  return () => {
    stopIds();
    for (const stop of watched) stop();
    watched = [];
    queued = false;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
