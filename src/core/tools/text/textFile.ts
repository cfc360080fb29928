import { isUtf8 } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { errorCode } from '../../errorCode';

/** How much of a file is sniffed to tell text from binary. */
export const sniffBytes = 8192;

/** Why a buffer is not shown as text, or undefined when its first 8 KB look like UTF-8 text. */
export function binaryReason(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, sniffBytes);
  if (head.includes(0)) return 'it contains NUL bytes';
  try {
    // stream: a multi-byte character cut by the 8 KB boundary is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < bytes.length });
  } catch (err) {
    if (err instanceof TypeError) return 'it is not valid UTF-8';
    throw err;
  }
  return undefined;
}

export type TextFile =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'binary'; reason: string }
  /** `exact` is false when invalid UTF-8 after the sniffed head would not survive a rewrite. */
  | { kind: 'text'; bytes: Buffer; text: string; exact: boolean };

/** Reads a file as UTF-8 text, telling apart missing files, folders and binary content. */
export async function readTextFile(absPath: string): Promise<TextFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(absPath);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'EISDIR') return { kind: 'directory' };
    throw err;
  }
  const reason = binaryReason(bytes);
  if (reason) return { kind: 'binary', reason };
  return { kind: 'text', bytes, text: bytes.toString('utf8'), exact: isUtf8(bytes) };
}
