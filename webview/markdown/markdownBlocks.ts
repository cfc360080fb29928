import type { Links, Token } from 'marked';
import { lexMarkdown } from './markdownEngine';

/**
 * One top-level block of a message: a fenced/indented code block (rendered as a component
 * with Copy / Insert buttons) or anything else (rendered as sanitized HTML). `raw` is
 * the block's exact source, blank lines after it included; it is the cache key.
 */
export type MarkdownBlock =
  | { kind: 'code'; raw: string; code: string; language: string | undefined }
  | { kind: 'html'; raw: string; tokens: Token[] };

interface Located {
  block: MarkdownBlock;
  /** Offset of the block in the message text. */
  start: number;
  /** Reference definitions known before this block. */
  linksBefore: Links;
}

/**
 * Splits a growing message into blocks without re-lexing what is finished. While text
 * only grows, every block but the last is final: each update lexes from the start of
 * the last block, and earlier blocks keep their identity (so memoized rows skip them).
 *
 * While a reply streams (`growing`), a delta that only extends the current line of a
 * text block is appended to that block's source without lexing at all: a new block can
 * only begin on a new line, and the open block is shown as text until it closes (see
 * Markdown.tsx). Its tokens are then out of date, so the next line, or the end of the
 * stream, lexes it again.
 */
export class IncrementalBlocks {
  private text = '';
  private located: Located[] = [];
  private blocks: readonly MarkdownBlock[] = [];
  /** The last block's source grew without lexing: its tokens are behind its source. */
  private stale = false;
  /** Characters handed to the lexer so far (tests check that streaming stays linear-ish). */
  lexedChars = 0;

  update(input: string, growing = false): readonly MarkdownBlock[] {
    const text = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
    if (text === this.text && (growing || !this.stale)) return this.blocks;
    const tail = this.located.at(-1);
    if (tail && text.startsWith(this.text)) {
      const added = text.slice(this.text.length);
      if (growing && tail.block.kind === 'html' && !this.text.endsWith('\n') && !added.includes('\n')) {
        const block: MarkdownBlock = { kind: 'html', raw: tail.block.raw + added, tokens: tail.block.tokens };
        this.located = [...this.located.slice(0, -1), { ...tail, block }];
        this.stale = true;
      } else {
        this.located = [...this.located.slice(0, -1), ...this.lex(text, tail.start, tail.linksBefore)];
        this.stale = false;
      }
    } else {
      this.located = this.lex(text, 0, {});
      this.stale = false;
    }
    this.text = text;
    this.blocks = this.located.map((entry) => entry.block);
    return this.blocks;
  }

  private lex(text: string, from: number, links: Links): Located[] {
    const source = text.slice(from);
    this.lexedChars += source.length;
    const { tokens } = lexMarkdown(source, links);
    const groups = groupTokens(tokens);
    const located: Located[] = [];
    let start = from;
    let known: Links = { ...links };
    for (const group of groups) {
      const block = toBlock(group);
      located.push({ block, start, linksBefore: known });
      start += block.raw.length;
      const defs = group.filter((token): token is Token & { type: 'def' } => token.type === 'def');
      if (defs.length > 0) known = { ...known, ...linksOf(defs) };
    }
    return located;
  }
}

/** A block starts at each token that is not blank space; blank space joins the block before it. */
function groupTokens(tokens: Token[]): Token[][] {
  const groups: Token[][] = [];
  for (const token of tokens) {
    const current = groups.at(-1);
    if (current && token.type === 'space') current.push(token);
    else if (current && current.every((t) => t.type === 'space')) current.push(token);
    else groups.push([token]);
  }
  return groups;
}

function toBlock(tokens: Token[]): MarkdownBlock {
  const raw = tokens.map((token) => token.raw).join('');
  const main = tokens.find((token) => token.type !== 'space');
  if (main?.type === 'code') {
    return { kind: 'code', raw, code: main.text, language: main.lang || undefined };
  }
  return { kind: 'html', raw, tokens };
}

function linksOf(defs: (Token & { type: 'def' })[]): Links {
  const links: Links = {};
  for (const def of defs) {
    const key = def.tag.toLowerCase().replace(/\s+/g, ' ');
    if (!(key in links)) links[key] = { href: def.href, title: def.title };
  }
  return links;
}
