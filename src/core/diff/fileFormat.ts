import { splitBom, withEol } from '../tools/text/lineEndings';
import type { Eol } from '../tools/text/lineEndings';

/** The one line ending a text uses, or undefined when it has none or mixes both. */
export function uniformEol(text: string): Eol | undefined {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text[i - 1] === '\r') crlf++;
    else lf++;
    if (crlf > 0 && lf > 0) return undefined;
  }
  if (crlf > 0) return '\r\n';
  return lf > 0 ? '\n' : undefined;
}

/**
 * `text` with the line endings of `reference` when the reference uses one kind only
 * (an editor may hand back LF for a CRLF file, or the other way round). Mixed or absent
 * line endings in the reference leave the text as it is.
 */
export function matchLineEndings(text: string, reference: string): string {
  const eol = uniformEol(reference);
  if (!eol || uniformEol(text) === eol) return text;
  return withEol(text, eol);
}

/**
 * Text the person produced (an edited proposal, from an editor that hides the BOM) in the
 * file format of `reference`: its UTF-8 BOM or lack of one, and its line endings.
 */
export function matchFileFormat(text: string, reference: string): string {
  const ref = splitBom(reference);
  return ref.bom + matchLineEndings(splitBom(text).body, ref.body);
}
