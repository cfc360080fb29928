import { createHash } from 'node:crypto';

/** The SHA-256 of some bytes (a string as UTF-8), in lowercase hex: how Keel names file contents. */
export function sha256(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}
