import type { DeltaCoalescer } from './deltaCoalescer';
import type { EventData } from '../../protocol/catalogue';
import type { Snapshot } from '../../protocol/sessionState';
import type { EventSink } from '../conversations/eventSink';

/** The attached chat view, as the controller talks to it. */
export interface ViewLink {
  readonly outbox: Pick<DeltaCoalescer, 'emit' | 'request' | 'flush'>;
  isReady(): boolean;
}

export interface ViewSyncDeps {
  /** Brings the configuration summary up to date before a snapshot goes out. */
  refreshConfig(): Promise<void>;
  /** The conversation in view as a newly loaded view is built from. */
  snapshot(): Snapshot;
  /** A snapshot reached the view: what waits for it (open approvals) can be shown. */
  onSynced(): void;
}

/**
 * The one chat view that may be attached: it gets a snapshot after each `ready`, and the
 * state's small events only after that snapshot, so it never sees an event it cannot place.
 * It shows one conversation at a time (see ConversationWindow).
 */
export class ViewSync implements EventSink {
  private view: ViewLink | undefined;
  /** A snapshot went to the attached view since its last `ready`: events may follow. */
  private synced = false;
  private readyGeneration = 0;
  private pendingPanel: 'chat' | 'sessions' | undefined;
  /** What the editor sent to the composer while the view was loading, in order. */
  private pendingComposer: EventData<'composer'>[] = [];
  private readonly deps: ViewSyncDeps;

  constructor(deps: ViewSyncDeps) {
    this.deps = deps;
  }

  /** A view was created; returns the function that detaches it. */
  attach(view: ViewLink): () => void {
    this.view = view;
    this.synced = false;
    return () => {
      if (this.view !== view) return;
      this.view = undefined;
      this.synced = false;
    };
  }

  /** The view said `ready`: it gets one snapshot, then what waited for it. */
  ready(): void {
    this.synced = false;
    const generation = ++this.readyGeneration;
    void this.deps.refreshConfig().then(() => {
      const view = this.view;
      if (generation !== this.readyGeneration || !view || !view.isReady()) return;
      view.outbox.emit('snapshot', this.snapshotNow());
      this.synced = true;
      this.deps.onSynced();
      if (this.pendingPanel) {
        view.outbox.emit('view.show', { panel: this.pendingPanel });
        this.pendingPanel = undefined;
      }
      for (const prefill of this.pendingComposer.splice(0)) view.outbox.emit('composer', prefill);
    });
  }

  /** Shows a panel of the view; waits for the view if it is loading. */
  showPanel(panel: 'chat' | 'sessions'): void {
    if (this.view && this.synced) this.view.outbox.emit('view.show', { panel });
    else this.pendingPanel = panel;
  }

  /** Fills the composer (the editor's "Add to Chat", "Fix with Keel"); waits for the view if it is loading. */
  prefillComposer(prefill: EventData<'composer'>): void {
    // A hidden view's page is gone (isReady false) until it shows and says ready again: it waits for that.
    if (this.view && this.synced && this.view.isReady()) this.view.outbox.emit('composer', prefill);
    else this.pendingComposer.push(prefill);
  }

  emit: EventSink['emit'] = (event, data) => {
    if (this.view && this.synced) this.view.outbox.emit(event, data);
  };

  /** The view, once it has its snapshot. */
  syncedView(): ViewLink | undefined {
    return this.synced ? this.view : undefined;
  }

  /** The conversation in view was replaced: a synced view is sent it whole. */
  sendSnapshot(): void {
    const view = this.view;
    if (!view || !this.synced) return;
    view.outbox.emit('snapshot', this.snapshotNow());
  }

  flush(): void {
    this.view?.outbox.flush();
  }

  private snapshotNow(): Snapshot {
    return this.deps.snapshot();
  }
}
