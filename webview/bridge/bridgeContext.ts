import { createContext, useContext } from 'react';
import type { UiBridge } from './uiBridge';

export const BridgeContext = createContext<UiBridge | null>(null);

/** The actions components call; they never see the bus itself. */
export function useBridge(): UiBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge needs a BridgeContext provider (see webview/main.tsx)');
  return bridge;
}
