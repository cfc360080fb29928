/** The `code` of a Node.js system error (`ENOENT`, `EACCES`…), or undefined for any other value. */
export function errorCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
