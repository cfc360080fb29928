export interface PathCandidate {
  /** Forward slashes, relative (prefixed by the folder name in multi-root). */
  path: string;
  kind: 'file' | 'folder';
}

/**
 * How well `query` matches `path`, or undefined when its characters do not all appear in
 * order. Rewards matches in the file name, at word starts (after / . _ - or a case change)
 * and runs of consecutive characters; penalises long paths a little.
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.replace(/\s+/g, '').toLowerCase();
  if (q === '') return -path.length;
  const lower = path.toLowerCase();
  const nameStart = path.lastIndexOf('/') + 1;
  // A plain substring of the name beats any scattered match.
  const inName = lower.indexOf(q, nameStart);
  if (inName >= 0) return 1000 - (inName - nameStart) * 2 - path.length * 0.1 + (inName === nameStart ? 100 : 0);
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    const at = lower.indexOf(ch, from);
    if (at < 0) return undefined;
    score += 1;
    if (at === previous + 1) score += 5;
    if (at === 0 || isBoundary(path, at)) score += 8;
    if (at >= nameStart) score += 3;
    previous = at;
    from = at + 1;
  }
  return score - path.length * 0.1;
}

function isBoundary(path: string, at: number): boolean {
  const before = path[at - 1]!;
  if ('/._- '.includes(before)) return true;
  const ch = path[at]!;
  return before === before.toLowerCase() && ch !== ch.toLowerCase();
}

/** The best `limit` candidates for the query, best first (ties: shorter, then alphabetical). */
export function rankPaths(query: string, candidates: readonly PathCandidate[], limit: number): PathCandidate[] {
  const scored: { candidate: PathCandidate; score: number }[] = [];
  for (const candidate of candidates) {
    const score = fuzzyScore(query, candidate.path);
    if (score !== undefined) scored.push({ candidate, score });
  }
  scored.sort((a, b) => b.score - a.score || a.candidate.path.length - b.candidate.path.length || a.candidate.path.localeCompare(b.candidate.path));
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** Files plus the folders that contain them (each once), for folder mentions. */
export function withFolders(files: readonly string[]): PathCandidate[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.indexOf('/'); slash > 0; slash = file.indexOf('/', slash + 1)) folders.add(file.slice(0, slash));
  }
  return [...files.map((path) => ({ path, kind: 'file' as const })), ...[...folders].map((path) => ({ path, kind: 'folder' as const }))];
}
