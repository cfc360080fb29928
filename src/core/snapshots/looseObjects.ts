import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateSync, constants as zlibConstants } from 'node:zlib';

/** The ids of the objects stored loose in an object folder (never those of its alternates). */
export async function listLooseObjects(objectsDir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const fanout = await readdirOrEmpty(objectsDir);
  await Promise.all(
    fanout
      .filter((d) => d.length === 2 && /^[0-9a-f]{2}$/.test(d))
      .map(async (d) => {
        for (const rest of await readdirOrEmpty(join(objectsDir, d))) if (!rest.includes('.')) ids.add(d + rest);
      }),
  );
  return ids;
}

export function looseObjectPath(objectsDir: string, oid: string): string {
  return join(objectsDir, oid.slice(0, 2), oid.slice(2));
}

export interface BlobHead {
  type: string;
  size: number;
  /** A NUL byte in the first 8000 bytes: git's own test for binary content. */
  binary: boolean;
}

/** Type, size and binary test of a loose object, from its first compressed bytes only. */
export async function readBlobHead(objectsDir: string, oid: string): Promise<BlobHead> {
  const handle = await open(looseObjectPath(objectsDir, oid), 'r');
  try {
    const buf = Buffer.alloc(16 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const head = inflateSync(buf.subarray(0, bytesRead), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const nul = head.indexOf(0);
    const [type, size] = head.subarray(0, nul).toString('latin1').split(' ');
    const body = head.subarray(nul + 1, nul + 1 + 8000);
    return { type: type ?? '', size: Number(size), binary: body.includes(0) };
  } finally {
    await handle.close();
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return [];
    throw err;
  }
}
