import { EARLY_MESSAGES, earlyViewOf } from '../../src/protocol/earlyView';
import type { EarlyView } from '../../src/protocol/earlyView';
import type { UiMessage } from '../../src/protocol/uiMessage';
import type { ChatStore } from '../store/chatStore';

/** Messages looked at to find EARLY_MESSAGES the early view keeps (tool results and marks are skipped). */
const TAIL = EARLY_MESSAGES * 2;

/**
 * Keeps the early view (the newest messages as text, see earlyView.ts) saved while the
 * conversation changes: at most once per `delayMs`, so a streaming reply costs one save a
 * second, and nothing while the chat is idle. Returns a stop function.
 */
export function startEarlyViewSaver(store: ChatStore, save: (view: EarlyView) => void, delayMs = 1000): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watched: (() => void)[] = [];

  const flush = (): void => {
    timer = undefined;
    const messages = store
      .getIds()
      .slice(-TAIL)
      .map((id) => store.getMessage(id))
      .filter((message): message is UiMessage => message !== undefined);
    save(earlyViewOf(messages));
  };
  const schedule = (): void => {
    // Before the first snapshot the store holds nothing worth keeping.
    if (timer === undefined && store.getMeta().ready) timer = setTimeout(flush, delayMs);
  };
  const watchTail = (): void => {
    for (const stop of watched) stop();
    watched = store
      .getIds()
      .slice(-TAIL)
      .map((id) => store.subscribeMessage(id, schedule));
    schedule();
  };

  const stopIds = store.subscribeIds(watchTail);
  return () => {
    stopIds();
    for (const stop of watched) stop();
    watched = [];
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
