import { randomUUID } from 'node:crypto';

/** `20261121-063512-1a2b3c4d` (UTC): a lexical sort of session ids is a sort by creation time. */
export function newSessionId(now: Date = new Date()): string {
  const iso = now.toISOString(); // 2026-11-21T06:35:12.345Z
  const date = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 19).replaceAll(':', '');
  return `${date}-${time}-${randomUUID().slice(0, 8)}`;
}

export function newMessageId(): string {
  return randomUUID();
}

/** Ids become file names: anything that could climb out of the sessions folder is refused. */
export function isValidSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(id);
}
