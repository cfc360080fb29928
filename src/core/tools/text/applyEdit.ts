import { detectEol, endsWithEol, splitBom, withEol } from './lineEndings';

export interface EditRequest {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

export type EditOutcome = { ok: true; after: string; replacements: number } | { ok: false; error: string };

/**
 * Replaces `oldString` in a file's text the way the model means it: the model writes `\n`,
 * so in a CRLF file both strings are matched and written with CRLF; a UTF-8 BOM and the
 * file's final-newline state survive the edit.
 */
export function applyEdit(before: string, req: EditRequest): EditOutcome {
  if (req.oldString === req.newString) {
    return { ok: false, error: 'old_string and new_string are identical, so the edit would change nothing.' };
  }
  if (req.oldString === '') {
    return { ok: false, error: 'old_string is empty; an empty old_string only creates a new file.' };
  }
  const { bom, body } = splitBom(before);
  const eol = detectEol(body);
  const candidates = [...new Set([withEol(req.oldString, eol), req.oldString])];
  let needle: string | undefined;
  let first = -1;
  for (const candidate of candidates) {
    first = body.indexOf(candidate);
    if (first >= 0) {
      needle = candidate;
      break;
    }
  }
  if (needle === undefined) return { ok: false, error: notFoundMessage(body, req.oldString) };

  const replacement = withEol(req.newString, eol);
  let result: string;
  let replacements: number;
  if (req.replaceAll) {
    const parts = body.split(needle);
    replacements = parts.length - 1;
    result = parts.join(replacement);
  } else {
    if (body.indexOf(needle, first + needle.length) >= 0) {
      const count = body.split(needle).length - 1;
      return {
        ok: false,
        error:
          `old_string matches ${count} times in the file. Include more surrounding lines so it matches exactly once, ` +
          'or set replace_all to change every occurrence.',
      };
    }
    replacements = 1;
    result = body.slice(0, first) + replacement + body.slice(first + needle.length);
  }
  return { ok: true, after: bom + keepFinalNewline(body, result, eol), replacements };
}

function keepFinalNewline(before: string, after: string, eol: string): string {
  if (before === '' || after === '') return after;
  const had = endsWithEol(before);
  const has = endsWithEol(after);
  if (had && !has) return after + eol;
  if (!had && has) return after.slice(0, after.endsWith('\r\n') ? -2 : -1);
  return after;
}

function notFoundMessage(body: string, oldString: string): string {
  const shown = oldString.length > 300 ? `${oldString.slice(0, 300)}…` : oldString;
  let message = `old_string was not found in the file:\n${shown}\n`;
  const firstLine = oldString.split('\n').find((l) => l.trim() !== '')?.trim();
  if (firstLine) {
    const hits: number[] = [];
    const lines = body.split('\n');
    for (let i = 0; i < lines.length && hits.length < 3; i++) {
      if (lines[i].trim() === firstLine) hits.push(i + 1);
    }
    if (hits.length > 0) {
      message += `Its first line appears, with different indentation or following lines, at line ${hits.join(', ')}. `;
    }
  }
  return `${message}old_string must match the file exactly, including whitespace and indentation; read the file again if unsure.`;
}
