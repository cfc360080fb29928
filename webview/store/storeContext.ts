import { createContext, useContext } from 'react';
import type { ChatStore } from './chatStore';

export const StoreContext = createContext<ChatStore | null>(null);

export function useStore(): ChatStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore needs a StoreContext provider (see webview/main.tsx)');
  return store;
}
