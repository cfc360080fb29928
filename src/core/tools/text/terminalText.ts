/**
 * Turns what a terminal wrote into plain text for the model: escape sequences (colours,
 * cursor moves, shell-integration marks) removed, CRLF as LF, and a lone CR (a progress bar
 * redrawing its line) as a line break. Works on a stream: a sequence split across chunks is
 * held back until its end arrives.
 */
export class TerminalText {
  private pending = '';

  push(chunk: string): string {
    const text = this.pending + chunk;
    this.pending = '';
    let out = '';
    let i = 0;
    while (i < text.length) {
      const ch = text[i];
      if (ch === '\x1b') {
        const end = escapeEnd(text, i);
        if (end === undefined) {
          this.pending = text.slice(i);
          break;
        }
        i = end;
        continue;
      }
      if (ch === '\r') {
        if (i + 1 === text.length) {
          this.pending = '\r';
          break;
        }
        out += '\n';
        i += text[i + 1] === '\n' ? 2 : 1;
        continue;
      }
      // Other C0 controls (bell, backspace...) carry nothing readable; tabs and newlines do.
      if ((ch < ' ' && ch !== '\n' && ch !== '\t') || ch === '\x7f') {
        i++;
        continue;
      }
      out += ch;
      i++;
    }
    return out;
  }

  /** What is left at the end of the stream (an unfinished sequence is dropped). */
  end(): string {
    const rest = this.pending === '\r' ? '\n' : '';
    this.pending = '';
    return rest;
  }
}

/** Index just past the escape sequence starting at `start`, or undefined when it is not complete yet. */
function escapeEnd(text: string, start: number): number | undefined {
  const kind = text[start + 1];
  if (kind === undefined) return undefined;
  if (kind === '[') {
    // CSI: parameters and intermediates, then one final byte in @..~.
    for (let i = start + 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return i + 1;
    }
    return undefined;
  }
  if (kind === ']' || kind === 'P' || kind === '_' || kind === '^') {
    // OSC / DCS / APC / PM: up to BEL or ST (ESC \).
    for (let i = start + 2; i < text.length; i++) {
      if (text[i] === '\x07') return i + 1;
      if (text[i] === '\x1b') {
        if (i + 1 === text.length) return undefined;
        if (text[i + 1] === '\\') return i + 2;
      }
    }
    return undefined;
  }
  if (kind === '(' || kind === ')' || kind === '#' || kind === '%') {
    return start + 2 < text.length ? start + 3 : undefined;
  }
  return start + 2;
}
