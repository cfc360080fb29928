/** A workspace file an answer names, with the lines it points at. */
export interface FileReference {
  path: string;
  startLine?: number;
  endLine?: number;
}

// A path with an extension that has a letter in it (so `1.2.3` is not one), then optionally
// `:12`, `:12:5` (a column), `:12-20` or `#L12` / `#L12-L20`.
const REFERENCE = /^((?:\.{0,2}\/)?(?:[\w@+\-.]+\/)*[\w@+\-.]*\w\.[A-Za-z][A-Za-z0-9]{0,9})(?::(\d{1,7})(?::\d{1,5})?(?:[-–](\d{1,7}))?|#L(\d{1,7})(?:-L?(\d{1,7}))?)?$/;

/**
 * The file reference `text` is, or undefined. Only a path with a folder in it (`src/a.ts`) or a
 * line (`a.ts:12`) counts: a bare `console.log` or `package.json` in code style is left as text.
 */
export function fileReference(text: string): FileReference | undefined {
  const match = REFERENCE.exec(text.trim());
  if (!match) return undefined;
  const [, path, colonStart, colonEnd, hashStart, hashEnd] = match;
  const start = colonStart ?? hashStart;
  const end = colonEnd ?? hashEnd;
  if (!path || (!path.includes('/') && start === undefined)) return undefined;
  const reference: FileReference = { path: path.replace(/^\.\//, '') };
  if (start !== undefined) {
    reference.startLine = Math.max(1, Number(start));
    reference.endLine = Math.max(reference.startLine, end !== undefined ? Number(end) : reference.startLine);
  }
  return reference;
}
