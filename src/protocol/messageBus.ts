import * as z from 'zod';
import { BusError, errorMessage } from './busError';
import type { BusErrorCode } from './busError';
import { cancelFrameSchema, eventFrameSchema, peekFrame, requestFrameSchema, responseFrameSchema } from './frames';
import type { EventFrame, FramePeek, Frame, RequestFrame, ResponseFrame } from './frames';
import type { LogFn } from './log';
import { PendingRequests } from './pendingRequests';
import type { Handler, HandlerContext, Listener, RequestOptions } from './busTypes';
import type { EventIn, EventOf, MethodOf, ParamsIn, ResultOut, Side } from './side';
import type { Transport } from './transport';
import { PROTOCOL_VERSION } from './version';

export interface MessageBusOptions<Local extends Side, Remote extends Side> {
  /** Methods this end answers and events it emits. */
  local: Local;
  /** Methods this end calls and events it listens to. */
  remote: Remote;
  transport: Transport;
  log: LogFn;
  /** Prefix for log lines, e.g. `host bus`. */
  name?: string;
}

type UntypedHandler = (params: unknown, context: HandlerContext) => unknown;
type UntypedListener = (data: unknown) => void;

/**
 * Typed request/response and events over any Transport. Everything received is
 * validated (envelope, then the method's or event's schema) before it reaches a handler
 * or listener; everything sent is validated too, so a bug shows up at its source.
 * Log lines name frames and schema issues but never payload values, which may hold secrets.
 */
export class MessageBus<Local extends Side, Remote extends Side> {
  private readonly local: Local;
  private readonly remote: Remote;
  private readonly transport: Transport;
  private readonly log: LogFn;
  private readonly label: string;
  private readonly unsubscribeTransport: () => void;
  private readonly idPrefix = `${Math.random().toString(36).slice(2, 8)}-`;
  private nextId = 0;
  private disposed = false;

  private readonly pending = new PendingRequests();
  private readonly incoming = new Map<string, AbortController>();
  private readonly handlers = new Map<string, UntypedHandler>();
  private readonly listeners = new Map<string, Set<UntypedListener>>();

  constructor(options: MessageBusOptions<Local, Remote>) {
    this.local = options.local;
    this.remote = options.remote;
    this.transport = options.transport;
    this.log = options.log;
    this.label = options.name ?? 'bus';
    this.unsubscribeTransport = this.transport.onMessage((message) => this.receive(message));
  }

  request<M extends MethodOf<Remote>>(
    method: M,
    params: ParamsIn<Remote, M>,
    options: RequestOptions = {},
  ): Promise<ResultOut<Remote, M>> {
    if (this.disposed) {
      return Promise.reject(new BusError('disposed', `Cannot call "${method}": the bus is disposed`));
    }
    const spec = Object.hasOwn(this.remote.methods, method) ? this.remote.methods[method] : undefined;
    if (!spec) {
      return Promise.reject(new BusError('unknown_method', `Unknown method "${method}"`));
    }
    const checked = spec.params.safeParse(params);
    if (!checked.success) {
      return Promise.reject(
        new BusError('invalid_params', `Invalid params for "${method}": ${z.prettifyError(checked.error)}`),
      );
    }
    const { signal, timeoutMs } = options;
    if (signal?.aborted) {
      return Promise.reject(new BusError('aborted', `Request "${method}" was cancelled before it was sent`));
    }

    const id = `${this.idPrefix}${++this.nextId}`;
    return new Promise<ResultOut<Remote, M>>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void =>
        this.abandon(id, new BusError('aborted', `Request "${method}" was cancelled`));
      this.pending.add(id, {
        method,
        resolve: (result) => resolve(result as ResultOut<Remote, M>),
        reject,
        cleanup: () => {
          if (timer !== undefined) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => this.abandon(id, new BusError('timeout', `Request "${method}" timed out after ${timeoutMs} ms`)),
          timeoutMs,
        );
      }
      const frame: RequestFrame = { v: PROTOCOL_VERSION, kind: 'request', id, method, params };
      try {
        this.transport.send(frame);
      } catch (err) {
        this.pending
          .settle(id)
          ?.reject(new BusError('send_failed', `Could not send "${method}": ${errorMessage(err)}`));
      }
    });
  }

  /** One handler per method; registering a second is a programming error. */
  handle<M extends MethodOf<Local>>(method: M, handler: Handler<Local, M>): () => void {
    if (!Object.hasOwn(this.local.methods, method)) {
      throw new Error(`${this.label}: "${method}" is not a method this side answers`);
    }
    if (this.handlers.has(method)) {
      throw new Error(`${this.label}: a handler for "${method}" is already registered`);
    }
    const untyped = handler as unknown as UntypedHandler;
    this.handlers.set(method, untyped);
    return () => {
      if (this.handlers.get(method) === untyped) this.handlers.delete(method);
    };
  }

  /** Invalid data is logged and not sent (the remote would drop it anyway). */
  emit<E extends EventOf<Local>>(event: E, data: EventIn<Local, E>): void {
    if (this.disposed) {
      this.log('debug', `${this.label}: event "${event}" not sent, the bus is disposed`);
      return;
    }
    const schema = Object.hasOwn(this.local.events, event) ? this.local.events[event] : undefined;
    if (!schema) {
      this.log('error', `${this.label}: event "${event}" is not in this side's catalogue; not sent`);
      return;
    }
    const checked = schema.safeParse(data);
    if (!checked.success) {
      this.log('error', `${this.label}: event "${event}" not sent, invalid data: ${z.prettifyError(checked.error)}`);
      return;
    }
    const frame: EventFrame = { v: PROTOCOL_VERSION, kind: 'event', name: event, data };
    this.sendLogged(frame, `event "${event}"`);
  }

  on<E extends EventOf<Remote>>(event: E, listener: Listener<Remote, E>): () => void {
    if (!Object.hasOwn(this.remote.events, event)) {
      throw new Error(`${this.label}: "${event}" is not an event the other side emits`);
    }
    const untyped = listener as unknown as UntypedListener;
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(untyped);
    return () => {
      this.listeners.get(event)?.delete(untyped);
    };
  }

  /** Rejects every request in flight, aborts running handlers, and stops listening. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribeTransport();
    this.pending.rejectAll(
      ({ method }) => new BusError('disposed', `Request "${method}" was cut short: the bus was disposed`),
    );
    for (const controller of this.incoming.values()) {
      controller.abort(new BusError('disposed', 'The bus was disposed'));
    }
    this.incoming.clear();
    this.handlers.clear();
    this.listeners.clear();
  }

  private receive(raw: unknown): void {
    if (this.disposed) return;
    const peek = peekFrame(raw);
    if (!peek) {
      this.log('error', `${this.label}: dropped a message that is not a frame object (${describe(raw)})`);
      return;
    }
    if (peek.v !== PROTOCOL_VERSION) {
      this.onVersionMismatch(peek);
      return;
    }
    switch (peek.kind) {
      case 'request': {
        const frame = this.parseFrame(requestFrameSchema, raw, peek);
        if (frame) this.onRequest(frame);
        else if (peek.id) this.respondError(peek.id, 'invalid_request', 'Malformed request frame');
        return;
      }
      case 'response': {
        const frame = this.parseFrame(responseFrameSchema, raw, peek);
        if (frame) this.onResponse(frame);
        else if (peek.id) {
          this.pending.settle(peek.id)?.reject(new BusError('invalid_response', 'Malformed response frame'));
        }
        return;
      }
      case 'event': {
        const frame = this.parseFrame(eventFrameSchema, raw, peek);
        if (frame) this.onEvent(frame);
        return;
      }
      case 'cancel': {
        const frame = this.parseFrame(cancelFrameSchema, raw, peek);
        if (frame) this.onCancel(frame.id);
        return;
      }
      case undefined:
        this.log('error', `${this.label}: dropped a frame with a missing or unknown kind`);
        return;
    }
  }

  private parseFrame<T>(schema: z.ZodType<T>, raw: unknown, peek: FramePeek): T | undefined {
    const checked = schema.safeParse(raw);
    if (checked.success) return checked.data;
    this.log('error', `${this.label}: dropped a malformed ${peek.kind} frame: ${z.prettifyError(checked.error)}`);
    return undefined;
  }

  private onVersionMismatch(peek: FramePeek): void {
    const message =
      `Protocol version mismatch: received ${String(peek.v)}, this side speaks ${PROTOCOL_VERSION}. ` +
      'Reload the window so the chat view and the extension match.';
    this.log('error', `${this.label}: dropped a ${peek.kind ?? 'malformed'} frame. ${message}`);
    if (peek.kind === 'request' && peek.id) this.respondError(peek.id, 'version_mismatch', message);
    if (peek.kind === 'response' && peek.id) {
      this.pending.settle(peek.id)?.reject(new BusError('version_mismatch', message));
    }
  }

  private onRequest(frame: RequestFrame): void {
    const { id, method } = frame;
    const spec = Object.hasOwn(this.local.methods, method) ? this.local.methods[method] : undefined;
    const handler = this.handlers.get(method);
    if (!spec || !handler) {
      const why = spec ? `No handler is registered for "${method}"` : `Unknown method "${method}"`;
      this.log('warn', `${this.label}: ${why}`);
      this.respondError(id, 'unknown_method', why);
      return;
    }
    if (this.incoming.has(id)) {
      this.log('warn', `${this.label}: duplicate request id for "${method}"`);
      this.respondError(id, 'invalid_request', `Request id is already in use`);
      return;
    }
    const checked = spec.params.safeParse(frame.params);
    if (!checked.success) {
      const message = `Invalid params for "${method}": ${z.prettifyError(checked.error)}`;
      this.log('warn', `${this.label}: ${message}`);
      this.respondError(id, 'invalid_params', message);
      return;
    }
    const controller = new AbortController();
    this.incoming.set(id, controller);
    this.runHandler(id, method, spec.result, handler, checked.data, controller).catch((err: unknown) =>
      this.log('error', `${this.label}: answering "${method}" failed: ${errorMessage(err)}`),
    );
  }

  private async runHandler(
    id: string,
    method: string,
    resultSchema: z.ZodType,
    handler: UntypedHandler,
    params: unknown,
    controller: AbortController,
  ): Promise<void> {
    let result: unknown;
    try {
      result = await handler(params, { signal: controller.signal });
    } catch (err) {
      if (!this.finishIncoming(id, controller)) return;
      this.log('warn', `${this.label}: handler for "${method}" failed: ${errorMessage(err)}`);
      if (err instanceof BusError) this.respondError(id, err.code, err.message, err.data);
      else this.respondError(id, 'handler_error', errorMessage(err));
      return;
    }
    // The caller has already given up on a cancelled request: answering would be noise.
    if (!this.finishIncoming(id, controller)) return;
    const checked = resultSchema.safeParse(result);
    if (!checked.success) {
      const message = `Handler for "${method}" returned an invalid result: ${z.prettifyError(checked.error)}`;
      this.log('error', `${this.label}: ${message}`);
      this.respondError(id, 'invalid_result', message);
      return;
    }
    this.sendLogged({ v: PROTOCOL_VERSION, kind: 'response', id, ok: true, result }, `response to "${method}"`);
  }

  /** Returns false when the request was cancelled (or the bus disposed) meanwhile. */
  private finishIncoming(id: string, controller: AbortController): boolean {
    if (this.incoming.get(id) === controller) this.incoming.delete(id);
    return !controller.signal.aborted && !this.disposed;
  }

  private onResponse(frame: ResponseFrame): void {
    const pending = this.pending.settle(frame.id);
    if (!pending) {
      if (this.pending.forgetAbandoned(frame.id)) {
        this.log('debug', `${this.label}: ignored a late response to a cancelled request`);
      } else {
        this.log('warn', `${this.label}: dropped a response to an unknown request id`);
      }
      return;
    }
    if (!frame.ok) {
      pending.reject(new BusError(frame.error.code, frame.error.message, frame.error.data));
      return;
    }
    const spec = this.remote.methods[pending.method];
    const checked = spec ? spec.result.safeParse(frame.result) : undefined;
    if (checked?.success) {
      pending.resolve(checked.data);
      return;
    }
    const issues = checked ? z.prettifyError(checked.error) : 'no schema';
    const message = `Invalid result for "${pending.method}": ${issues}`;
    this.log('error', `${this.label}: ${message}`);
    pending.reject(new BusError('invalid_response', message));
  }

  private onEvent(frame: EventFrame): void {
    const { name } = frame;
    const schema = Object.hasOwn(this.remote.events, name) ? this.remote.events[name] : undefined;
    if (!schema) {
      this.log('warn', `${this.label}: dropped unknown event "${name}"`);
      return;
    }
    const checked = schema.safeParse(frame.data);
    if (!checked.success) {
      this.log('error', `${this.label}: dropped event "${name}" with invalid data: ${z.prettifyError(checked.error)}`);
      return;
    }
    for (const listener of [...(this.listeners.get(name) ?? [])]) {
      try {
        listener(checked.data);
      } catch (err) {
        // One failing listener must not starve the others or break the bus.
        this.log('error', `${this.label}: listener for "${name}" threw: ${errorMessage(err)}`);
      }
    }
  }

  private onCancel(id: string): void {
    const controller = this.incoming.get(id);
    if (!controller) {
      this.log('debug', `${this.label}: cancel for a request that already finished`);
      return;
    }
    controller.abort(new BusError('aborted', 'Cancelled by the caller'));
  }

  /** Gives up on a request locally and tells the remote handler to stop. */
  private abandon(id: string, error: BusError): void {
    const pending = this.pending.abandon(id);
    if (!pending) return;
    pending.reject(error);
    this.sendLogged({ v: PROTOCOL_VERSION, kind: 'cancel', id }, `cancel of "${pending.method}"`);
  }

  private respondError(id: string, code: BusErrorCode, message: string, data?: unknown): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.sendLogged({ v: PROTOCOL_VERSION, kind: 'response', id, ok: false, error }, `error response (${code})`);
  }

  private sendLogged(frame: Frame, what: string): void {
    try {
      this.transport.send(frame);
    } catch (err) {
      this.log('error', `${this.label}: could not send ${what}: ${errorMessage(err)}`);
    }
  }
}

function describe(raw: unknown): string {
  if (raw === null) return 'null';
  if (Array.isArray(raw)) return 'array';
  return typeof raw;
}
