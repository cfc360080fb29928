import { errorMessage } from '../../protocol/busError';
import { peekFrame } from '../../protocol/frames';
import type { ResponseFrame } from '../../protocol/frames';
import type { LogFn } from '../../protocol/log';
import type { Transport } from '../../protocol/transport';
import { PROTOCOL_VERSION } from '../../protocol/version';

/**
 * Host-side guard around the webview transport: nothing is posted until the webview
 * says `ready`. Pre-ready frames are dropped, not buffered: the snapshot sent on `ready`
 * already holds everything they carried, and replaying them after it would duplicate text.
 */
export interface ReadyGate {
  /** Hand this to the host bus instead of the raw transport. */
  readonly transport: Transport;
  isReady(): boolean;
  /**
   * Runs on every `ready` of the right version (first load, reload, recreation), after
   * requests the previous page never answered have failed with `peer_reset`. Send the
   * snapshot here, then re-send pending approvals.
   */
  onReady(listener: () => void): () => void;
  /** The view was hidden or disposed: fail open requests and post nothing until the next `ready`. */
  close(): void;
  dispose(): void;
}

export function createReadyGate(inner: Transport, log: LogFn): ReadyGate {
  let ready = false;
  const listeners = new Set<(message: unknown) => void>();
  const readyListeners = new Set<() => void>();
  /** Requests posted to the current page and not answered yet. */
  const inFlight = new Set<string>();

  const deliver = (message: unknown): void => {
    for (const listener of [...listeners]) listener(message);
  };

  const failedResponse = (id: string, code: string, message: string): ResponseFrame => ({
    v: PROTOCOL_VERSION,
    kind: 'response',
    id,
    ok: false,
    error: { code, message },
  });

  const failInFlight = (message: string): void => {
    const ids = [...inFlight];
    inFlight.clear();
    for (const id of ids) deliver(failedResponse(id, 'peer_reset', message));
  };

  const onReadyFrame = (raw: unknown, frameVersion: unknown): void => {
    const announced = announcedVersion(raw);
    if (announced !== PROTOCOL_VERSION || frameVersion !== PROTOCOL_VERSION) {
      ready = false;
      failInFlight('The chat view was replaced by one that speaks another protocol version');
      const message =
        `The chat view speaks protocol version ${announced ?? 'unknown'} but the extension speaks ` +
        `${PROTOCOL_VERSION}. Run "Developer: Reload Window" so they match.`;
      log('error', `ready gate: ${message}`);
      // Framed in the webview's own version so its bus accepts this one explanatory event.
      const v = typeof frameVersion === 'number' ? frameVersion : (announced ?? PROTOCOL_VERSION);
      try {
        inner.send({ v, kind: 'event', name: 'error', data: { code: 'version_mismatch', message, retryable: false } });
      } catch (err) {
        log('error', `ready gate: could not tell the webview about the mismatch: ${errorMessage(err)}`);
      }
      return;
    }
    ready = true;
    failInFlight('The chat view was reloaded before it answered');
    deliver(raw);
    for (const listener of [...readyListeners]) {
      try {
        listener();
      } catch (err) {
        log('error', `ready gate: a ready listener threw: ${errorMessage(err)}`);
      }
    }
  };

  const unsubscribe = inner.onMessage((raw) => {
    const peek = peekFrame(raw);
    if (peek?.kind === 'event' && peek.name === 'ready') {
      onReadyFrame(raw, peek.v);
      return;
    }
    if (peek?.kind === 'response' && peek.id) inFlight.delete(peek.id);
    deliver(raw);
  });

  const transport: Transport = {
    send(frame) {
      const peek = peekFrame(frame);
      if (!ready) {
        // A response answers something the webview asked, so it is listening already.
        if (peek?.kind === 'response') {
          inner.send(frame);
          return;
        }
        log('debug', `ready gate: dropped a ${peek?.kind ?? 'malformed'} frame posted before the webview was ready`);
        const id = peek?.kind === 'request' ? peek.id : undefined;
        if (id !== undefined) {
          // Answer for the webview so the caller is not left waiting; async like a real reply.
          queueMicrotask(() => deliver(failedResponse(id, 'not_ready', 'The chat view is not open yet')));
        }
        return;
      }
      inner.send(frame);
      if (peek?.kind === 'request' && peek.id) inFlight.add(peek.id);
      if (peek?.kind === 'cancel' && peek.id) inFlight.delete(peek.id);
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };

  return {
    transport,
    isReady: () => ready,
    onReady(listener) {
      readyListeners.add(listener);
      return () => {
        readyListeners.delete(listener);
      };
    },
    close() {
      ready = false;
      failInFlight('The chat view was closed before it answered');
    },
    dispose() {
      ready = false;
      failInFlight('The chat view was closed before it answered');
      unsubscribe();
      listeners.clear();
      readyListeners.clear();
    },
  };
}

function announcedVersion(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const data = (raw as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return undefined;
  const version = (data as { protocolVersion?: unknown }).protocolVersion;
  return typeof version === 'number' ? version : undefined;
}
