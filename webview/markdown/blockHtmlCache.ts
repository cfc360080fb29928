import type { Token } from 'marked';
import { renderTokens } from './markdownEngine';

/**
 * Rendered HTML of finished blocks, by their source. A block is parsed and sanitized
 * once; re-mounting a row (the list is virtualized) or re-rendering a message costs a
 * lookup. Least recently used entries go first.
 */
export class BlockHtmlCache {
  private readonly entries = new Map<string, string>();
  /** Blocks rendered (cache misses), for tests and diagnostics. */
  renders = 0;

  constructor(private readonly capacity = 1000) {}

  /** `final: false` for a block still streaming: rendered but not kept, it changes on the next delta. */
  html(raw: string, tokens: Token[], final: boolean): string {
    const cached = this.entries.get(raw);
    if (cached !== undefined) {
      this.entries.delete(raw);
      this.entries.set(raw, cached);
      return cached;
    }
    this.renders++;
    const html = renderTokens(tokens);
    if (final) {
      this.entries.set(raw, html);
      if (this.entries.size > this.capacity) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
    }
    return html;
  }
}

/** One cache for the page: the same block text renders the same everywhere. */
export const blockHtmlCache = new BlockHtmlCache();
