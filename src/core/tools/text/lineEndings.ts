export type Eol = '\n' | '\r\n';

const bom = '\uFEFF';

/** The file's line ending, judged by its first line break (LF when it has none). */
export function detectEol(text: string): Eol {
  const lf = text.indexOf('\n');
  return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n';
}

/** Rewrites every line break (LF or CRLF) as `eol`. */
export function withEol(text: string, eol: Eol): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}

export function splitBom(text: string): { bom: string; body: string } {
  return text.startsWith(bom) ? { bom, body: text.slice(1) } : { bom: '', body: text };
}

export function endsWithEol(text: string): boolean {
  return text.endsWith('\n');
}
