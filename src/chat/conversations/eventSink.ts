import type { HostEventName, HostSide } from '../../protocol/catalogue';
import type { EventIn } from '../../protocol/side';

/** Where the state's changes go: the attached view's outbox, or nowhere while no view is open. */
export interface EventSink {
  emit<E extends HostEventName>(event: E, data: EventIn<HostSide, E>): void;
}
