import { Lexer, Marked } from 'marked';
import type { Links, Token } from 'marked';
import { highlightCode } from './highlight';
import { sanitizeHtml } from './sanitizeHtml';

const OPTIONS = { gfm: true, breaks: false } as const;

/** Keel's marked: GitHub-flavoured, code blocks nested in lists/quotes highlighted in place. */
const engine = new Marked({
  ...OPTIONS,
  async: false,
  renderer: {
    code({ text, lang }) {
      return `<pre class="md-code" tabindex="0"><code>${highlightCode(text, lang)}</code></pre>\n`;
    },
  },
});

/**
 * Lexes one stretch of markdown. `links` carries reference definitions ([x]: url) seen
 * earlier in the message, since a stretch may be lexed apart from the text before it.
 */
export function lexMarkdown(source: string, links: Links): { tokens: Token[]; links: Links } {
  const lexer = new Lexer(OPTIONS);
  Object.assign(lexer.tokens.links, links);
  const tokens = lexer.lex(source);
  return { tokens, links: tokens.links };
}

/** Tokens → sanitized HTML (the only way model markdown becomes HTML). */
export function renderTokens(tokens: Token[]): string {
  return sanitizeHtml(engine.parser(tokens));
}
