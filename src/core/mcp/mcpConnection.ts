import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage } from '../errors';

/** A request that never reached the server (refused, reset, DNS), as opposed to an answer that says no. */
export function unreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'UND_ERR_SOCKET'].includes(code)) return true;
    if (e.message === 'fetch failed') return true;
  }
  return false;
}

export async function closeQuietly(client: Client, note: (message: string) => void): Promise<void> {
  try {
    await client.close();
  } catch (err) {
    note(`closing the connection failed: ${errorMessage(err)}`);
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
