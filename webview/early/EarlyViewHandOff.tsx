import { useLayoutEffect } from 'react';
import { useStore } from '../store/storeContext';
import { useMeta } from '../store/storeHooks';

export interface EarlyViewHandOffProps {
  /** The early view the host drew in the page's HTML (see src/vscode/view/earlyViewHtml.ts). */
  early: HTMLElement;
  /** Where the UI renders, hidden until it takes over. */
  root: HTMLElement;
}

/**
 * Swaps the early view for the UI in the commit that first draws the host's snapshot, before
 * that frame is painted: the view never shows "Connecting…" nor both at once. What was typed
 * into the early composer moves to the real one, the caret where it was.
 */
export function EarlyViewHandOff({ early, root }: EarlyViewHandOffProps) {
  const store = useStore();
  const ready = useMeta((meta) => meta.ready);
  useLayoutEffect(() => {
    if (!ready || !early.isConnected) return;
    const input = early.querySelector('textarea');
    const typed = input?.value ?? '';
    const caret = input?.selectionStart ?? typed.length;
    early.remove();
    root.hidden = false;
    if (typed.trim() !== '') store.prefillComposer({ text: typed, caret });
  }, [ready, early, root, store]);
  return null;
}
