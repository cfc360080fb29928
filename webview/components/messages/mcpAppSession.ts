import { errorMessage } from '../../../src/protocol/busError';

/**
 * The host's side of one MCP App's conversation (the ext-apps protocol: JSON-RPC 2.0 over
 * postMessage): the `ui/initialize` handshake with the host context, the tool's input and result
 * once the app says it is initialized, its size, and its `tools/call` requests, which go to Keel
 * (the person's approval, as for the model). Nothing else the app asks for is offered.
 */

/** The protocol versions Keel speaks, newest first. */
export const APP_PROTOCOL_VERSIONS = ['2026-01-26', '2025-11-21'] as const;

/** An app is at most this tall on the card; past it, it scrolls inside. */
export const MAX_APP_HEIGHT = 1000;

type Json = Record<string, unknown>;

export interface AppSessionOptions {
  /** Posts to the app's frame. */
  post(message: Json): void;
  /** Runs the app's `tools/call` through Keel; rejects with the reason it could not. */
  callTool(name: string, args: Record<string, unknown>): Promise<Json>;
  /** The app's content is this tall (pixels, already capped). */
  setHeight(height: number): void;
  /** The context the app gets at `ui/initialize` (theme, styles, locale, tool). */
  hostContext(): Json;
  /** The domains the app's policy allows, as Keel applied them. */
  csp: Json;
  /** The call's arguments and the server's result. */
  input: Record<string, unknown>;
  result: Json;
  /** Keel's version, for `hostInfo`. */
  version: string;
}

const methodNotFound = -32601;
const invalidParams = -32602;
const internalError = -32603;

export class AppSession {
  private initialized = false;

  constructor(private readonly opts: AppSessionOptions) {}

  /** A message the app's frame posted (the caller checked it came from that frame). */
  handle(data: unknown): void {
    if (!isObject(data) || data.jsonrpc !== '2.0' || typeof data.method !== 'string') return;
    const params = isObject(data.params) ? data.params : {};
    if (data.id === undefined || data.id === null) {
      this.notified(data.method, params);
      return;
    }
    const id = data.id;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    void this.answer(id, data.method, params);
  }

  /** The host's look changed (theme): told to an app that finished its handshake. */
  contextChanged(partial: Json): void {
    if (this.initialized) this.opts.post({ jsonrpc: '2.0', method: 'ui/notifications/host-context-changed', params: partial });
  }

  private notified(method: string, params: Json): void {
    switch (method) {
      case 'ui/notifications/initialized':
        if (this.initialized) return;
        this.initialized = true;
        this.opts.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: this.opts.input } });
        this.opts.post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: this.opts.result });
        return;
      case 'ui/notifications/size-changed': {
        const height = params.height;
        if (typeof height === 'number' && Number.isFinite(height) && height >= 0) this.opts.setHeight(Math.min(MAX_APP_HEIGHT, Math.ceil(height)));
        return;
      }
      default:
        // Logging and the rest: Keel declared none of them, so there is nothing to do.
        return;
    }
  }

  private async answer(id: string | number, method: string, params: Json): Promise<void> {
    const reply = (result: Json) => this.opts.post({ jsonrpc: '2.0', id, result });
    const fail = (code: number, message: string) => this.opts.post({ jsonrpc: '2.0', id, error: { code, message } });
    switch (method) {
      case 'ui/initialize': {
        const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        const protocolVersion = (APP_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : APP_PROTOCOL_VERSIONS[0];
        reply({
          protocolVersion,
          hostInfo: { name: 'keel', version: this.opts.version },
          hostCapabilities: { serverTools: {}, sandbox: { csp: this.opts.csp } },
          hostContext: this.opts.hostContext(),
        });
        return;
      }
      case 'ping':
        reply({});
        return;
      case 'ui/request-display-mode':
        reply({ mode: 'inline' });
        return;
      case 'tools/call': {
        const name = params.name;
        const args = params.arguments ?? {};
        if (typeof name !== 'string' || name === '' || !isObject(args)) {
          fail(invalidParams, 'tools/call needs a tool name and an arguments object');
          return;
        }
        try {
          reply(await this.opts.callTool(name, args));
        } catch (err) {
          fail(internalError, errorMessage(err));
        }
        return;
      }
      default:
        fail(methodNotFound, `Keel does not offer ${method} to apps`);
    }
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
