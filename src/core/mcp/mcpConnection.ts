import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage } from '../errors';
import { CallClock } from './mcpCallClock';

/** A request that never reached the server (refused, reset, DNS), as opposed to an answer that says no. */
export function unreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'UND_ERR_SOCKET'].includes(code)) return true;
    if (e.message === 'fetch failed') return true;
  }
  return false;
}

/** Work started in the background (lists read again), to be waited for as one. */
export class Pending {
  private all: Promise<void> | undefined;

  add(work: Promise<void>): void {
    const all: Promise<void> = Promise.all([this.all, work]).then(() => {
      if (this.all === all) this.all = undefined;
    });
    this.all = all;
  }

  settled(): Promise<void> {
    return this.all ?? Promise.resolve();
  }
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

/**
 * A timeout for work that may wait for the person (signing in): `race` rejects with `message`
 * after `ms`, not counting the time between `hold()` and the release it returns.
 */
export function heldTimeout(ms: number, message: string): { hold: () => () => void; race<T>(work: Promise<T>): Promise<T> } {
  let expire: (err: Error) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => (expire = reject));
  const clock = new CallClock(ms, Number.POSITIVE_INFINITY, () => expire(new Error(message)));
  return { hold: () => clock.hold(), race: (work) => Promise.race([work, expired]).finally(() => clock.stop()) };
}
