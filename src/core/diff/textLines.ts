/**
 * Lines of a text with their own terminators ("a\r\n", "b\n", "c"), so joining them gives
 * the text back byte for byte: line endings, a missing final newline and a BOM (part of the
 * first line) survive any recombination of whole lines.
 */
export function splitLinesKeepEol(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    lines.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** A line without its terminator, for display. */
export function lineBody(line: string): string {
  if (line.endsWith('\r\n')) return line.slice(0, -2);
  if (line.endsWith('\n')) return line.slice(0, -1);
  return line;
}

export function hasTerminator(line: string): boolean {
  return line.endsWith('\n');
}
