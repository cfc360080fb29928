import { describe, expect, it } from 'vitest';
import { ViewSync } from '../../../src/chat/bus/viewSync';
import type { Snapshot } from '../../../src/protocol/sessionState';

/** A view that records what it is sent; `ready` says whether its page is loaded. */
function fakeView() {
  const sent: string[] = [];
  const view = {
    ready: true,
    sent,
    outbox: {
      emit: (event: string) => void sent.push(event),
      request: () => Promise.reject(new Error('not used')),
      flush: () => undefined,
    },
    isReady: () => view.ready,
  };
  return view;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the editor's prefill of the chat's composer", () => {
  /** A sync with a view attached that has had its snapshot. */
  const synced = async () => {
    const viewSync = new ViewSync({ refreshConfig: async () => undefined, snapshot: () => ({}) as Snapshot, onSynced: () => undefined });
    const view = fakeView();
    viewSync.attach(view as never);
    viewSync.ready();
    await settle();
    return { viewSync, view };
  };

  it('goes straight to a view that shows the conversation', async () => {
    const { viewSync, view } = await synced();
    viewSync.prefillComposer({ mentions: [{ kind: 'file', path: 'src/a.ts' }], add: true });
    expect(view.sent).toEqual(['snapshot', 'composer']);
  });

  it('waits while the page is hidden, and follows the snapshot of the page that comes back', async () => {
    const { viewSync, view } = await synced();
    // Hidden: the page is torn down until it says ready again.
    view.ready = false;
    viewSync.prefillComposer({ mentions: [{ kind: 'folder', path: 'test' }], add: true });
    expect(view.sent).toEqual(['snapshot']);
    view.ready = true;
    viewSync.ready();
    await settle();
    expect(view.sent).toEqual(['snapshot', 'snapshot', 'composer']);
  });
});
