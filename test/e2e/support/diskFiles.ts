// Waiting for what the extension host writes to the workspace, as bytes on disk.
import { existsSync, readFileSync } from 'node:fs';

/** Resolves once `path` holds exactly `expected`; polls the disk (the write happens in another process). */
export async function untilFile(path: string, expected: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const read = () => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
  while (read() !== expected) {
    if (Date.now() > deadline) throw new Error(`${path} never became the accepted content; it holds:\n${read() ?? '(no file)'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
