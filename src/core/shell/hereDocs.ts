import { ShellCursor } from './shellCursor';
import { readHereDocBody } from './shellWords';
import type { NestedParser } from './shellWords';

/**
 * Reads the bodies of the here-docs whose operators were on the line just ended, in order,
 * from the cursor (just after that line's newline). An unquoted body's expansions are parsed
 * from its own text with the parser `nested` gives for it.
 */
export function readHereDocs(cur: ShellCursor, nested: (bodyCursor: ShellCursor) => NestedParser): void {
  while (cur.pendingHereDocs.length > 0) {
    const doc = cur.pendingHereDocs.shift();
    if (!doc) break;
    let body = '';
    while (!cur.eof) {
      let line = readLine(cur, doc.stripTabs);
      // In an unquoted here-doc a backslash-newline joins lines before the delimiter is looked for.
      while (!doc.quoted && endsInEscape(line) && !cur.eof) line = line.slice(0, -1) + readLine(cur, doc.stripTabs);
      if (line === doc.delimiter) break;
      body += `${line}\n`;
    }
    if (doc.quoted) {
      doc.redirect.hereDoc = { quoted: true, body: { parts: body === '' ? [] : [{ kind: 'text', text: body }], raw: body } };
    } else {
      const bodyCursor = new ShellCursor(body);
      bodyCursor.depth = cur.depth;
      doc.redirect.hereDoc = { quoted: false, body: readHereDocBody(bodyCursor, nested(bodyCursor)) };
    }
  }
}

/** An odd number of backslashes at the end: the last one escapes the newline. */
function endsInEscape(line: string): boolean {
  let n = 0;
  while (n < line.length && line[line.length - 1 - n] === '\\') n++;
  return n % 2 === 1;
}

function readLine(cur: ShellCursor, stripTabs: boolean): string {
  const end = cur.src.indexOf('\n', cur.pos);
  const line = cur.src.slice(cur.pos, end < 0 ? cur.src.length : end);
  cur.pos = end < 0 ? cur.src.length : end + 1;
  return stripTabs ? line.replace(/^\t+/, '') : line;
}
