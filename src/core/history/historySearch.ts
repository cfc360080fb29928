import type { HistoryMessage } from './sessionHistory';

export const maxResults = 20;
export const maxLast = 50;
const wholeMessageChars = 1_200;
const snippetChars = 320;
const maxSnippets = 3;
export const maxOutputChars = 16_000;

export interface SearchRequest {
  query?: string;
  last?: number;
}

function terms(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/\s+/).filter((t) => t !== ''))];
}

/**
 * Messages matching every keyword (case-insensitive), or failing that any keyword, most
 * matching first; `last` keeps the newest N. Returned oldest first.
 */
export function searchHistory(all: readonly HistoryMessage[], req: SearchRequest): { hits: HistoryMessage[]; matched: number; mode: 'all' | 'any' | 'last' } {
  const words = req.query ? terms(req.query) : [];
  if (words.length === 0) {
    const n = Math.min(req.last ?? maxResults, maxLast);
    return { hits: all.slice(-n), matched: all.length, mode: 'last' };
  }
  const lower = all.map((m) => m.text.toLowerCase());
  const counts = lower.map((t) => words.filter((w) => t.includes(w)).length);
  let matching = all.filter((_, i) => counts[i] === words.length);
  let mode: 'all' | 'any' = 'all';
  if (matching.length === 0 && words.length > 1) {
    mode = 'any';
    const ranked = all.map((m, i) => ({ m, c: counts[i] })).filter((x) => x.c > 0);
    // Most keywords first, newer first among equals; then back to conversation order.
    ranked.sort((a, b) => b.c - a.c || b.m.index - a.m.index);
    matching = ranked.slice(0, Math.min(req.last ?? maxResults, maxResults)).map((x) => x.m).sort((a, b) => a.index - b.index);
    return { hits: matching, matched: ranked.length, mode };
  }
  const n = Math.min(req.last ?? maxResults, maxResults);
  return { hits: matching.slice(-n), matched: matching.length, mode };
}

/** A message's text whole when short, else the passages around the keywords. */
export function excerpt(text: string, query: string | undefined): string {
  if (text.length <= wholeMessageChars) return text;
  const words = query ? terms(query) : [];
  const lower = text.toLowerCase();
  const spans: [number, number][] = [];
  for (const w of words) {
    let at = lower.indexOf(w);
    while (at !== -1 && spans.length < maxSnippets) {
      const start = Math.max(0, at - snippetChars / 2);
      const end = Math.min(text.length, at + w.length + snippetChars / 2);
      const last = spans.at(-1);
      if (last && start <= last[1]) last[1] = Math.max(last[1], end);
      else spans.push([start, end]);
      at = lower.indexOf(w, end);
    }
  }
  if (spans.length === 0) return `${text.slice(0, wholeMessageChars)}… [${text.length - wholeMessageChars} more characters]`;
  spans.sort((a, b) => a[0] - b[0]);
  const parts = spans.map(([s, e]) => `${s > 0 ? '…' : ''}${text.slice(s, e)}${e < text.length ? '…' : ''}`);
  return `${parts.join('\n')}\n[excerpts of a ${text.length}-character message]`;
}
