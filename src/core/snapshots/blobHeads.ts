import { runGit, type GitEnv } from './gitRunner';
import { readBlobHead, type BlobHead } from './looseObjects';

/** A few loose objects: their first compressed bytes straight from the object files. */
export async function blobHeadsByFile(objectsDir: string, oids: readonly string[]): Promise<Map<string, BlobHead>> {
  const heads = new Map<string, BlobHead>();
  for (const oid of oids) heads.set(oid, await readBlobHead(objectsDir, oid));
  return heads;
}

/** Many objects, loose or packed (a folder's first snapshot): types and sizes in one git process, contents in a few. */
export async function blobHeadsByGit(env: GitEnv, oids: readonly string[], maxFileBytes: number): Promise<Map<string, BlobHead>> {
  const heads = new Map<string, BlobHead>();
  if (oids.length === 0) return heads;
  const listed = (await runGit(env, ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { input: `${oids.join('\n')}\n` })).toString('utf8');
  const small: string[] = [];
  for (const line of listed.split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (!oid || !type || size === undefined) continue;
    heads.set(oid, { type, size: Number(size), binary: false });
    if (type === 'blob' && Number(size) <= maxFileBytes) small.push(oid);
  }
  // Contents for the binary test, in batches so no more than ~64 MB is held at once.
  let batch: string[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    for (const [oid, content] of await catBlobs(env, batch)) heads.get(oid)!.binary = content.subarray(0, 8000).includes(0);
    batch = [];
    bytes = 0;
  };
  for (const oid of small) {
    batch.push(oid);
    bytes += heads.get(oid)!.size;
    if (bytes > 64 * 1024 * 1024) await flush();
  }
  await flush();
  return heads;
}

/** Several objects' contents in one git process; missing ones are absent from the map. */
export async function catBlobs(env: GitEnv, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  if (oids.length === 0) return found;
  const out = await runGit(env, ['cat-file', '--batch'], { input: `${oids.join('\n')}\n` });
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString('latin1').split(' ');
    at = eol + 1;
    if (header[1] === 'missing' || header.length < 3) continue;
    const size = Number(header[2]);
    found.set(header[0]!, out.subarray(at, at + size));
    at += size + 1;
  }
  return found;
}
