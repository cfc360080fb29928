import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../errors';
import { alwaysSkipped } from '../tools/search/fileWalker';
import { stampOf } from './fileStamps';
import type { Stamp } from './fileStamps';
import { ancestorLevels, isIgnored, loadIgnoreFile } from './ignoreStack';
import type { IgnoreLevel } from './ignoreStack';

export interface TreeOptions {
  /** Entries shown in all. */
  maxEntries: number;
  /** Entries shown per folder, so one crowded folder cannot take the whole listing. */
  maxPerDir: number;
  /** The folder holding `.git` above root, whose .gitignore files apply. */
  repoTop?: string;
}

export interface TreeListing {
  /** Indented listing; folders end in `/`, unexpanded folders in `/ …`. */
  text: string;
  shown: number;
  /** Some folders were not expanded or not listed in full. */
  truncated: boolean;
  /** Stamps of every folder read and every ignore file consulted: the listing holds while they do. */
  stamps: Map<string, Stamp>;
  problems: string[];
}

interface Node {
  name: string;
  dir: boolean;
  children?: Node[];
  hiddenFiles?: number;
  hiddenDirs?: number;
}

interface Job {
  node: Node;
  abs: string;
  stack: IgnoreLevel[];
}

const readBatch = 16;

/**
 * Lists a folder breadth-first, so the top levels of a large repository are always shown
 * and deep folders only while room is left. `.git`, `node_modules` and what .gitignore
 * files exclude are left out; symbolic links are listed but not followed.
 */
export async function listTree(root: string, label: string, opts: TreeOptions): Promise<TreeListing> {
  const stamps = new Map<string, Stamp>();
  const problems: string[] = [];
  const top: Node = { name: label, dir: true };
  let queue: Job[] = [{ node: top, abs: root, stack: await ancestorLevels(root, opts.repoTop, stamps, problems) }];
  let shown = 0;
  let truncated = false;
  while (queue.length > 0 && shown < opts.maxEntries) {
    const batch = queue.slice(0, readBatch);
    queue = queue.slice(readBatch);
    const listed = await Promise.all(batch.map((job) => readFolder(job, stamps, problems)));
    for (let i = 0; i < batch.length; i++) {
      const job = batch[i];
      const entries = listed[i];
      if (entries === undefined) continue;
      const room = Math.min(opts.maxPerDir, opts.maxEntries - shown);
      if (room <= 0) {
        truncated = true;
        break;
      }
      const kept = entries.items.slice(0, room);
      job.node.children = kept.map((e) => {
        const node: Node = { name: e.name, dir: e.dir };
        if (e.dir) queue.push({ node, abs: join(job.abs, e.name), stack: entries.stack });
        return node;
      });
      shown += kept.length;
      const rest = entries.items.slice(room);
      if (rest.length > 0) {
        truncated = true;
        job.node.hiddenDirs = rest.filter((e) => e.dir).length;
        job.node.hiddenFiles = rest.length - job.node.hiddenDirs;
      }
    }
  }
  if (queue.length > 0) truncated = true;
  const lines: string[] = [];
  render(top, 0, lines);
  return { text: lines.join('\n'), shown, truncated, stamps, problems };
}

async function readFolder(
  job: Job,
  stamps: Map<string, Stamp>,
  problems: string[],
): Promise<{ items: { name: string; dir: boolean }[]; stack: IgnoreLevel[] } | undefined> {
  let entries: Dirent[];
  try {
    const [list, stamp] = await Promise.all([readdir(job.abs, { withFileTypes: true }), stampOf(job.abs)]);
    entries = list;
    stamps.set(job.abs, stamp);
  } catch (err) {
    problems.push(`${job.abs}: ${errorMessage(err)}`);
    return undefined;
  }
  const hasGit = entries.some((e) => e.name === '.git');
  const rules = entries.some((e) => e.name === '.gitignore' && !e.isDirectory())
    ? await loadIgnoreFile(join(job.abs, '.gitignore'), stamps, problems)
    : undefined;
  const stack = [...job.stack, { dir: job.abs, rules, hasGit }];
  const items: { name: string; dir: boolean }[] = [];
  for (const e of entries) {
    if (alwaysSkipped.includes(e.name)) continue;
    const dir = e.isDirectory();
    if (isIgnored(stack, join(job.abs, e.name), dir)) continue;
    items.push({ name: e.name, dir });
  }
  // Folders first, then files, each by name: the shape of the project before its details.
  items.sort((a, b) => (a.dir !== b.dir ? (a.dir ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { items, stack };
}

function render(node: Node, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  if (!node.dir) {
    out.push(`${pad}${node.name}`);
    return;
  }
  out.push(`${pad}${node.name}/${node.children === undefined ? ' …' : ''}`);
  for (const child of node.children ?? []) render(child, depth + 1, out);
  const more: string[] = [];
  if (node.hiddenDirs) more.push(`${node.hiddenDirs} more folder${node.hiddenDirs === 1 ? '' : 's'}`);
  if (node.hiddenFiles) more.push(`${node.hiddenFiles} more file${node.hiddenFiles === 1 ? '' : 's'}`);
  if (more.length) out.push(`${pad}  [… ${more.join(', ')}]`);
}
