import type { IncomingMessage } from 'node:http';

/*
 * AWS's event stream framing (application/vnd.amazon.eventstream), as Bedrock's ConverseStream
 * sends it. Each message: total length and headers length (uint32 BE), the prelude's CRC32,
 * the headers, the payload, the message's CRC32. The checksums are not recomputed: TLS already
 * guards the bytes, and a frame cut short is caught by its lengths.
 */

/** A message's `:message-type`, its `:event-type` or `:exception-type`, and its payload text. */
export interface StreamMessage {
  messageType: string;
  type: string;
  payload: string;
}

const PRELUDE = 12;
const TRAILER = 4;

/** The string headers of a message (other value types are skipped by their sizes). */
function readHeaders(buf: Buffer, start: number, end: number): Record<string, string> {
  const out: Record<string, string> = {};
  let at = start;
  while (at < end) {
    const nameLength = buf.readUInt8(at);
    const name = buf.toString('utf8', at + 1, at + 1 + nameLength);
    at += 1 + nameLength;
    const type = buf.readUInt8(at);
    at += 1;
    switch (type) {
      case 0: // true
      case 1: // false
        break;
      case 2:
        at += 1;
        break;
      case 3:
        at += 2;
        break;
      case 4:
        at += 4;
        break;
      case 5:
      case 8: // timestamp
        at += 8;
        break;
      case 6: // bytes
      case 7: {
        const length = buf.readUInt16BE(at);
        if (type === 7) out[name] = buf.toString('utf8', at + 2, at + 2 + length);
        at += 2 + length;
        break;
      }
      case 9: // uuid
        at += 16;
        break;
      default:
        throw new Error(`The event stream has a header of unknown type ${type}`);
    }
  }
  return out;
}

/**
 * Reads the messages off the response in order and hands each to `onMessage`, which may throw
 * to end the stream with that error; `onRead` runs after the messages of each piece read off
 * the network. Resolves when the server ends the response on a message boundary; rejects
 * when the connection breaks or the response ends inside a message.
 */
export function readEventStream(response: IncomingMessage, onMessage: (message: StreamMessage) => void, onRead?: () => void): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      response.destroy();
      reject(err);
    };
    response.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        let buf = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        let at = 0;
        while (buf.length - at >= PRELUDE) {
          const total = buf.readUInt32BE(at);
          if (total < PRELUDE + TRAILER) throw new Error(`The event stream has a message of ${total} bytes, shorter than its framing`);
          if (buf.length - at < total) break;
          const headersLength = buf.readUInt32BE(at + 4);
          const headersEnd = at + PRELUDE + headersLength;
          const headers = readHeaders(buf, at + PRELUDE, headersEnd);
          const messageType = headers[':message-type'] ?? 'event';
          onMessage({
            messageType,
            type: headers[':event-type'] ?? headers[':exception-type'] ?? headers[':error-code'] ?? '',
            payload: messageType === 'error' ? (headers[':error-message'] ?? '') : buf.toString('utf8', headersEnd, at + total - TRAILER),
          });
          at += total;
        }
        buf = buf.subarray(at);
        // Keep a copy of what is left, not a view that pins the whole piece read.
        pending = buf.length === 0 ? Buffer.alloc(0) : Buffer.from(buf);
        onRead?.();
      } catch (err) {
        fail(err);
      }
    });
    response.on('end', () => {
      if (settled) return;
      if (pending.length > 0) return fail(Object.assign(new Error('the model endpoint ended the response inside an event (terminated)'), { code: 'ECONNRESET' }));
      settled = true;
      resolve();
    });
    const cut = () => fail(Object.assign(new Error('the connection to the model endpoint was cut mid-stream (terminated)'), { code: 'ECONNRESET' }));
    response.on('aborted', cut);
    response.on('error', fail);
    response.on('close', () => {
      if (!response.complete) cut();
    });
  });
}
