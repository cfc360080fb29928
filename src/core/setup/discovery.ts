import { sep } from 'node:path';

/** The items in order, a name found again after its first place left out (workspace before home). */
export function firstByName<T extends { name: string }>(items: Iterable<T>): T[] {
  const out: T[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.name)) continue;
    seen.add(item.name);
    out.push(item);
  }
  return out;
}

/** A relative path with `/` between its parts, as shown to the person and the model. */
export function slashed(path: string): string {
  return path.split(sep).join('/');
}
