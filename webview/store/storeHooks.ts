import { useCallback, useSyncExternalStore } from 'react';
import type { UiMessage } from '../../src/protocol/uiMessage';
import type { ChatMeta } from './chatMeta';
import { useStore } from './storeContext';

/**
 * One field (or a value derived without allocating) of the store's meta. The selector
 * must return a stable reference, or the component re-renders on every meta change.
 */
export function useMeta<T>(select: (meta: ChatMeta) => T): T {
  const store = useStore();
  return useSyncExternalStore(store.subscribeMeta, () => select(store.getMeta()));
}

/** Ordered message ids; changes only when messages come or go. */
export function useMessageIds(): readonly string[] {
  const store = useStore();
  return useSyncExternalStore(store.subscribeIds, store.getIds);
}

/** One message; re-renders only when that message changes (e.g. a delta for it). */
export function useMessage(id: string): UiMessage | undefined {
  const store = useStore();
  const subscribe = useCallback((listener: () => void) => store.subscribeMessage(id, listener), [store, id]);
  return useSyncExternalStore(subscribe, () => store.getMessage(id));
}
