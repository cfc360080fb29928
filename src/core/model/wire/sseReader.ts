/**
 * Reads a server-sent event stream straight off the response bytes and hands each event's
 * data to `onData`, in order. One decoder, one string buffer, no stream transforms: the
 * per-event cost is finding the line ends. `onData` may throw to end the stream with that error.
 */
export async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  // Data lines of the event being read; most events have exactly one.
  let data: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      if (data !== undefined) {
        const d = data;
        data = undefined;
        onData(d);
      }
      return;
    }
    if (text.charCodeAt(0) !== 100 /* d */ || !text.startsWith('data:')) return; // event:, id:, retry:, comments
    const value = text.charCodeAt(5) === 32 ? text.slice(6) : text.slice(5);
    data = data === undefined ? value : `${data}\n${value}`;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      for (;;) {
        const end = buffer.indexOf('\n', start);
        if (end < 0) break;
        const stop = end > start && buffer.charCodeAt(end - 1) === 13 ? end - 1 : end;
        line(buffer.slice(start, stop));
        start = end + 1;
      }
      buffer = start === 0 ? buffer : buffer.slice(start);
    }
    buffer += decoder.decode();
    // A last event without its blank line still counts: some servers end that way.
    if (buffer !== '') line(buffer.endsWith('\r') ? buffer.slice(0, -1) : buffer);
    line('');
  } catch (err) {
    // Stop the body so the connection is given back; the error that ended the stream is the one to report.
    await reader.cancel(err).catch(() => undefined);
    throw err;
  } finally {
    reader.releaseLock();
  }
}
