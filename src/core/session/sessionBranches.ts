import type { MessageNode } from './sessionState';

/** Where a message stands among the alternatives that share its parent ("branch 2 of 3"). */
export interface BranchPoint {
  /** 1-based position among its siblings, oldest first. */
  index: number;
  count: number;
  /** The sibling ids, oldest first (this message included). */
  siblings: string[];
}

/**
 * The fork points on a branch: for each of its messages that has siblings of the same role
 * (an edited and resent prompt), its position among them. One pass over the whole tree.
 */
export function branchPoints(nodes: ReadonlyMap<string, MessageNode>, branch: readonly MessageNode[]): Map<string, BranchPoint> {
  // Most conversations were never edited: one counting pass says so without building lists.
  const children = new Map<string | null, number>();
  let forked = false;
  for (const node of nodes.values()) {
    const count = (children.get(node.parentId) ?? 0) + 1;
    children.set(node.parentId, count);
    if (count > 1) forked = true;
  }
  if (!forked) return new Map();
  const onBranch = new Set(branch.map((n) => n.id));
  const wanted = new Set(branch.map((n) => n.parentId ?? ''));
  const siblingsOf = new Map<string, string[]>();
  // Map order is insertion order, which is log order: siblings come out oldest first.
  for (const node of nodes.values()) {
    const key = node.parentId ?? '';
    if (!wanted.has(key)) continue;
    let list = siblingsOf.get(key);
    if (!list) siblingsOf.set(key, (list = []));
    list.push(node.id);
  }
  const out = new Map<string, BranchPoint>();
  for (const node of branch) {
    const all = siblingsOf.get(node.parentId ?? '') ?? [];
    const same = all.filter((id) => nodes.get(id)?.message.role === node.message.role);
    if (same.length < 2 || !onBranch.has(node.id)) continue;
    out.set(node.id, { index: same.indexOf(node.id) + 1, count: same.length, siblings: same });
  }
  return out;
}

/**
 * The leaf a branch that passes through `id` ends in: from `id`, always the newest child, so
 * switching back to a branch finds where its conversation stopped.
 */
export function leafThrough(nodes: ReadonlyMap<string, MessageNode>, id: string): string {
  const newestChild = new Map<string, string>();
  for (const node of nodes.values()) if (node.parentId !== null) newestChild.set(node.parentId, node.id);
  let leaf = id;
  for (let next = newestChild.get(leaf); next !== undefined; next = newestChild.get(leaf)) leaf = next;
  return leaf;
}
