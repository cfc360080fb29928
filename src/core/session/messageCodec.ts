import type { ModelMessage } from 'ai';
import type { JsonValue } from '../jsonValue';

/**
 * Makes a value plain JSON for the log, or throws naming the part JSON cannot hold: bytes (Uint8Array, Buffer, ArrayBuffer) become base64
 * strings, which the AI SDK accepts wherever it accepts bytes; URLs and Dates become strings
 * through their toJSON; undefined fields disappear as they would in JSON.
 */
export function toLoggedJson(value: unknown, path = 'message'): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path} is ${value}, which JSON cannot hold`);
    return value;
  }
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map((v, i) => toLoggedJson(v ?? null, `${path}[${i}]`));
  if (typeof value === 'object') {
    const withToJson = value as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === 'function') return toLoggedJson(withToJson.toJSON(), path);
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[k] = toLoggedJson(v, `${path}.${k}`);
    }
    return out;
  }
  if (value === undefined) throw new TypeError(`${path} is undefined`);
  throw new TypeError(`${path} is a ${typeof value}, which JSON cannot hold`);
}

interface StoredMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: unknown;
}

/**
 * Restores what JSON flattened: the SDK's tagged file data `{type: 'url', url}` expects a URL
 * object. Bare URL strings in image/file parts need nothing: the SDK parses them itself.
 */
export function decodeMessage(stored: StoredMessage): ModelMessage {
  if (Array.isArray(stored.content)) {
    for (const part of stored.content as Array<Record<string, unknown>>) {
      if (part.type === 'file' || part.type === 'reasoning-file') reviveTaggedUrl(part.data);
    }
  }
  // The shape was checked by storedMessageSchema; the parts were produced by the SDK itself.
  return stored as unknown as ModelMessage;
}

function reviveTaggedUrl(data: unknown): void {
  if (typeof data !== 'object' || data === null) return;
  const tagged = data as { type?: unknown; url?: unknown };
  if (tagged.type === 'url' && typeof tagged.url === 'string' && URL.canParse(tagged.url)) {
    tagged.url = new URL(tagged.url);
  }
}
