import type { BuiltCore, HeldCore } from './coreLoader';

/** The core as the chat layer reaches it: built on demand, or the one built already. */
export interface CoreAccess {
  get(): Promise<BuiltCore>;
  /** The core for a run: not replaced or shut down until the run releases it. */
  hold(): Promise<HeldCore>;
  peek(): BuiltCore | undefined;
}
