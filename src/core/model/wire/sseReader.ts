import type { IncomingMessage } from 'node:http';

/**
 * Reads a server-sent event stream off the response and hands each event's data to
 * `onData`, in order. Plain 'data' events of the response, one string buffer, no stream
 * transforms and no string per line: the per-event cost is finding the line ends and
 * slicing out the data. `onData` may throw to end the stream with that error. `onRead`
 * runs after the events of each piece read off the network. Resolves when the server ends
 * the response; rejects when the connection breaks first (a retryable network error).
 */
export function readSse(response: IncomingMessage, onData: (data: string) => void, onRead?: () => void): Promise<void> {
  let buffer = '';
  // Data lines of the event being read; most events have exactly one.
  let data: string | undefined;
  /** Handles the line buffer[start, end) (without its line break). */
  const line = (start: number, end: number) => {
    if (end === start) {
      if (data !== undefined) {
        const d = data;
        data = undefined;
        onData(d);
      }
      return;
    }
    // Other fields (event:, id:, retry:) and comments carry nothing the wires need.
    if (!buffer.startsWith('data:', start)) return;
    const from = buffer.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
    const value = buffer.slice(from, end);
    data = data === undefined ? value : `${data}\n${value}`;
  };
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      // Stop reading so the connection is given back; the error that ended the stream is the one to report.
      response.destroy();
      reject(err);
    };
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (settled) return;
      try {
        buffer += chunk;
        let start = 0;
        // Lines end in LF, CRLF or a bare CR (the SSE spec allows all three). Most servers
        // send no CR at all: its position is looked up once per piece and again only when passed.
        let cr = buffer.indexOf('\r');
        for (;;) {
          const lf = buffer.indexOf('\n', start);
          if (cr !== -1 && cr < start) cr = buffer.indexOf('\r', start);
          if (cr === -1 || (lf !== -1 && lf < cr)) {
            if (lf === -1) break;
            line(start, lf);
            start = lf + 1;
            continue;
          }
          // A CR as the last character may be the first half of a CRLF still on its way.
          if (cr + 1 === buffer.length) break;
          line(start, cr);
          start = buffer.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        }
        if (start > 0) buffer = buffer.slice(start);
        onRead?.();
      } catch (err) {
        fail(err);
      }
    });
    response.on('end', () => {
      if (settled) return;
      try {
        // A last event without its blank line still counts: some servers end that way.
        if (buffer.endsWith('\r')) buffer = buffer.slice(0, -1);
        if (buffer !== '') line(0, buffer.length);
        buffer = '';
        line(0, 0);
        settled = true;
        resolve();
      } catch (err) {
        fail(err);
      }
    });
    // A connection cut mid-body: Node reports it as an aborted response, or it just closes.
    const cut = () => fail(Object.assign(new Error('the connection to the model endpoint was cut mid-stream (terminated)'), { code: 'ECONNRESET' }));
    response.on('aborted', cut);
    response.on('error', fail);
    response.on('close', () => {
      if (!response.complete) cut();
    });
  });
}
