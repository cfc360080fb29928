import { readFile, stat } from 'node:fs/promises';
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import type { BlobHead } from './looseObjects';

/** Packs up to this size are read whole; larger ones are left to git. */
const maxScannedPack = 256 * 1024 * 1024;

const typeNames = ['', 'commit', 'tree', 'blob', 'tag'];

/**
 * Type, size and binary test of every object in a pack written by `git add` (no deltas), read
 * straight from its .idx and .pack: a first snapshot of thousands of files needs neither a
 * listing process nor reading every blob back through git. Undefined when the pack is not
 * one this reads (another index version, deltas, too large): git is asked instead.
 */
export async function scanPack(pack: string): Promise<Map<string, BlobHead> | undefined> {
  const idx = await readFile(`${pack}.idx`);
  if (idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) return undefined;
  if ((await stat(`${pack}.pack`)).size > maxScannedPack) return undefined;
  const data = await readFile(`${pack}.pack`);
  const count = idx.readUInt32BE(8 + 255 * 4);
  const names = 8 + 256 * 4;
  const offsets = names + count * 24;
  const large = offsets + count * 4;
  const entries: Array<{ oid: string; offset: number }> = [];
  for (let i = 0; i < count; i++) {
    let offset = idx.readUInt32BE(offsets + i * 4);
    if (offset & 0x80000000) offset = Number(idx.readBigUInt64BE(large + (offset & 0x7fffffff) * 8));
    entries.push({ oid: idx.toString('hex', names + i * 20, names + i * 20 + 20), offset });
  }
  entries.sort((a, b) => a.offset - b.offset);
  const heads = new Map<string, BlobHead>();
  const end = data.length - 20;
  for (let i = 0; i < entries.length; i++) {
    const { oid, offset } = entries[i]!;
    let at = offset;
    let byte = data[at++]!;
    const type = (byte >> 4) & 7;
    let size = byte & 15;
    let shift = 4;
    while (byte & 0x80) {
      byte = data[at++]!;
      size += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    const name = typeNames[type];
    if (!name) return undefined;
    const stop = Math.min(i + 1 < entries.length ? entries[i + 1]!.offset : end, at + 16 * 1024);
    // A deflate stream is never much longer than what it decodes to, so its first 16 KiB
    // decode to at least the first 8,000 bytes of any larger object.
    const head = type === 3 ? inflateSync(data.subarray(at, stop), { finishFlush: zlibConstants.Z_SYNC_FLUSH }) : Buffer.alloc(0);
    heads.set(oid, { type: name, size, binary: head.subarray(0, 8000).includes(0) });
  }
  return heads;
}
