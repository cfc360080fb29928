/**
 * Reads a server-sent event stream straight off the response bytes and hands each event's
 * data to `onData`, in order. One decoder, one string buffer, no stream transforms and no
 * string per line: the per-event cost is finding the line ends and slicing out the data.
 * `onData` may throw to end the stream with that error. `onRead` runs after the events of
 * each piece read off the network.
 */
export async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string) => void, onRead?: () => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  // Data lines of the event being read; most events have exactly one.
  let data: string | undefined;
  /** Handles the line buffer[start, end) (without its line break). */
  const line = (start: number, end: number) => {
    if (end > start && buffer.charCodeAt(end - 1) === 13) end--;
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
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n', start)) {
        line(start, end);
        start = end + 1;
      }
      if (start > 0) buffer = buffer.slice(start);
      onRead?.();
    }
    buffer += decoder.decode();
    // A last event without its blank line still counts: some servers end that way.
    if (buffer !== '') line(0, buffer.length);
    buffer = '';
    line(0, 0);
  } catch (err) {
    // Stop the body so the connection is given back; the error that ended the stream is the one to report.
    await reader.cancel(err).catch(() => undefined);
    throw err;
  } finally {
    reader.releaseLock();
  }
}
