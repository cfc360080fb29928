import { useEffect, useState } from 'react';
import type { PathMention } from '../../../src/protocol/uiMessage';
import { useBridge } from '../../bridge/bridgeContext';

export type FileHit = Pick<PathMention, 'kind' | 'path'>;

/** Most hits the @-menu lists. */
const FILE_SEARCH_LIMIT = 20;

/**
 * Files matching the @-query, as the host finds them. Answers to older queries are
 * dropped, so fast typing never shows results for a query that is already gone.
 */
export function useFileSearch(query: string | null): readonly FileHit[] {
  const bridge = useBridge();
  const [hits, setHits] = useState<{ query: string; results: readonly FileHit[] }>({ query: '', results: [] });

  useEffect(() => {
    if (query === null) return undefined;
    let current = true;
    void bridge.call('files.search', { query, limit: FILE_SEARCH_LIMIT }).then((found) => {
      if (current && found) setHits({ query, results: found.results });
    });
    return () => {
      current = false;
    };
  }, [bridge, query]);

  return query !== null && hits.query === query ? hits.results : [];
}
