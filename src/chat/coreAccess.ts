import type { BuiltCore } from './coreLoader';

/** The core as the chat layer reaches it: built on demand, or the one built already. */
export interface CoreAccess {
  get(): Promise<BuiltCore>;
  peek(): BuiltCore | undefined;
}
