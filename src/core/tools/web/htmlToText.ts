import { decodeEntities } from './htmlEntities';

/** Elements whose whole content is dropped: code, styling and site chrome, not the page's text. */
const dropped = new Set(['script', 'style', 'nav', 'noscript', 'template', 'svg', 'iframe', 'canvas', 'head', 'select', 'button']);
/** Elements whose content is raw text up to the matching end tag. */
const rawText = new Set(['script', 'style', 'textarea', 'title', 'xmp']);
const voidElements = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const paragraphBlocks = new Set(['p', 'pre', 'blockquote', 'ul', 'ol', 'dl', 'table', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const lineBlocks = new Set([
  'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'li', 'tr', 'dt', 'dd', 'form',
  'figcaption', 'address', 'details', 'summary', 'caption', 'fieldset', 'legend', 'thead', 'tbody', 'tfoot',
]);

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attrs: Map<string, string>;
  end: number;
}

/** Builds plain text with a little Markdown: tracks whether we are at a line start to place breaks. */
class TextOut {
  private chunks: string[] = [];
  private trailingNewlines = 2;
  private spacePending = false;

  get length(): number {
    return this.chunks.length;
  }

  /** Inline text; whitespace is collapsed unless `pre`. */
  text(raw: string, pre = false): void {
    if (pre) {
      this.flushSpace();
      this.push(raw);
      return;
    }
    const collapsed = raw.replace(/[ \t\n\r\f]+/g, ' ');
    if (collapsed === '') return;
    const leading = collapsed.startsWith(' ');
    const trailing = collapsed.endsWith(' ');
    const words = collapsed.trim();
    if (leading && this.trailingNewlines === 0) this.spacePending = true;
    if (words !== '') {
      this.flushSpace();
      this.push(words);
    }
    if (trailing && words !== '') this.spacePending = true;
  }

  /** Markup such as list markers: placed like text, but never collapsed. */
  marker(s: string): void {
    this.flushSpace();
    this.push(s);
  }

  /** Ends the current line and leaves at least `n` newlines (2 = blank line between blocks). */
  block(n: 1 | 2): void {
    this.spacePending = false;
    if (this.trailingNewlines >= n) return;
    this.chunks.push('\n'.repeat(n - this.trailingNewlines));
    this.trailingNewlines = n;
  }

  since(mark: number): string {
    return this.chunks.slice(mark).join('');
  }

  toString(): string {
    return this.chunks
      .join('')
      .split('\n')
      .map((l) => l.replace(/[ \t]+$/, ''))
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }

  private flushSpace(): void {
    if (this.spacePending && this.trailingNewlines === 0) this.chunks.push(' ');
    this.spacePending = false;
  }

  private push(s: string): void {
    if (s === '') return;
    this.chunks.push(s);
    const m = /\n*$/.exec(s);
    const newlines = m ? m[0].length : 0;
    this.trailingNewlines = newlines === s.length ? this.trailingNewlines + newlines : newlines;
  }
}

function parseTag(html: string, at: number): Tag | undefined {
  const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/.exec(html.slice(at, at + 64));
  if (!m) return undefined;
  const attrs = new Map<string, string>();
  const attrRe = /\s*([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?|\s*(\/?>)|\s*\//y;
  let pos = at + m[0].length;
  let selfClosing = false;
  for (;;) {
    attrRe.lastIndex = pos;
    const a = attrRe.exec(html);
    if (!a) {
      // Malformed attributes: the tag ends at the next `>`.
      const gt = html.indexOf('>', pos);
      return { name: m[2].toLowerCase(), closing: m[1] === '/', selfClosing, attrs, end: gt < 0 ? html.length : gt + 1 };
    }
    pos = attrRe.lastIndex;
    if (a[3]) {
      selfClosing = a[3] === '/>';
      return { name: m[2].toLowerCase(), closing: m[1] === '/', selfClosing, attrs, end: attrRe.lastIndex };
    }
    if (a[1]) {
      const value = a[2] ?? '';
      const unquoted = value.startsWith('"') || value.startsWith("'") ? value.slice(1, -1) : value;
      attrs.set(a[1].toLowerCase(), decodeEntities(unquoted));
    }
  }
}

function linkTarget(href: string | undefined, baseUrl: string | undefined): string | undefined {
  if (!href || href.startsWith('#') || /^\s*javascript:/i.test(href)) return undefined;
  try {
    return baseUrl ? new URL(href, baseUrl).href : href;
  } catch (err) {
    if (err instanceof TypeError) return href;
    throw err;
  }
}

/**
 * Turns a web page into readable text for the model: scripts, styles and navigation dropped,
 * headings as `#`, links as `text (url)`, list items as `-` or `1.`, preformatted blocks
 * fenced, entities decoded, whitespace collapsed.
 */
export function htmlToText(html: string, baseUrl?: string): string {
  const out = new TextOut();
  let title = '';
  let i = 0;
  let preDepth = 0;
  const lists: { ordered: boolean; n: number }[] = [];
  const links: { mark: number; href?: string }[] = [];
  let cellInRow = 0;

  let preStart = false;
  const emitText = (raw: string): void => {
    let text = decodeEntities(raw);
    // HTML ignores a newline right after <pre>.
    if (preStart && text.startsWith('\n')) text = text.slice(1);
    preStart = false;
    out.text(text, preDepth > 0);
  };

  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      emitText(html.slice(i));
      break;
    }
    if (lt > i) emitText(html.slice(i, lt));
    i = lt;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith('<![CDATA[', i)) {
      const end = html.indexOf(']]>', i);
      out.text(html.slice(i + 9, end < 0 ? html.length : end), preDepth > 0);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    if (html.startsWith('<!', i) || html.startsWith('<?', i)) {
      const end = html.indexOf('>', i);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    const tag = parseTag(html, i);
    if (!tag) {
      out.text('<', preDepth > 0);
      i++;
      continue;
    }
    i = tag.end;
    const name = tag.name;

    if (!tag.closing && rawText.has(name) && !tag.selfClosing) {
      const closeRe = new RegExp(`</${name}`, 'gi');
      closeRe.lastIndex = i;
      const close = closeRe.exec(html)?.index ?? -1;
      const body = html.slice(i, close < 0 ? html.length : close);
      if (name === 'title') title = decodeEntities(body).replace(/\s+/g, ' ').trim();
      else if (name === 'textarea' || name === 'xmp') out.text(decodeEntities(body), true);
      const gt = close < 0 ? -1 : html.indexOf('>', close);
      i = gt < 0 ? html.length : gt + 1;
      continue;
    }
    if (!tag.closing && dropped.has(name) && !tag.selfClosing && !voidElements.has(name)) {
      const end = skipElement(html, i, name);
      if (name === 'head') {
        const t = /<title[^>]*>([\s\S]*?)<\/title/i.exec(html.slice(i, end));
        if (t) title = decodeEntities(t[1]).replace(/\s+/g, ' ').trim();
      }
      i = end;
      continue;
    }
    if (tag.closing) closeTag(name);
    else openTag(tag);
  }

  function openTag(tag: Tag): void {
    const name = tag.name;
    const heading = /^h([1-6])$/.exec(name);
    if (nestedList(name, lists.length)) out.block(1);
    else if (paragraphBlocks.has(name)) out.block(2);
    else if (lineBlocks.has(name)) out.block(1);
    if (heading) out.marker(`${'#'.repeat(Number(heading[1]))} `);
    switch (name) {
      case 'br':
        out.block(1);
        break;
      case 'hr':
        out.block(2);
        out.marker('---');
        out.block(2);
        break;
      case 'ul':
      case 'ol':
        lists.push({ ordered: name === 'ol', n: 0 });
        break;
      case 'li': {
        const list = lists[lists.length - 1];
        const indent = '  '.repeat(Math.max(0, lists.length - 1));
        if (list?.ordered) out.marker(`${indent}${++list.n}. `);
        else out.marker(`${indent}- `);
        break;
      }
      case 'pre':
        out.marker('```\n');
        preDepth++;
        preStart = true;
        break;
      case 'code':
        if (preDepth === 0) out.marker('`');
        break;
      case 'a':
        links.push({ mark: out.length, href: tag.attrs.get('href') });
        break;
      case 'img': {
        const alt = tag.attrs.get('alt')?.trim();
        if (alt) out.text(` [image: ${alt}] `);
        break;
      }
      case 'tr':
        cellInRow = 0;
        break;
      case 'td':
      case 'th':
        if (cellInRow++ > 0) out.marker(' | ');
        break;
    }
  }

  function closeTag(name: string): void {
    const nested = nestedList(name, lists.length - 1);
    switch (name) {
      case 'ul':
      case 'ol':
        lists.pop();
        break;
      case 'pre':
        if (preDepth > 0) {
          preDepth--;
          out.block(1);
          out.marker('```');
        }
        break;
      case 'code':
        if (preDepth === 0) out.marker('`');
        break;
      case 'a':
        closeLink();
        break;
    }
    if (nested) out.block(1);
    else if (paragraphBlocks.has(name)) out.block(2);
    else if (lineBlocks.has(name)) out.block(1);
  }

  function closeLink(): void {
    const link = links.pop();
    if (!link) return;
    const label = out.since(link.mark).trim();
    const url = linkTarget(link.href, baseUrl);
    if (url && label !== '' && label !== url) out.marker(` (${url})`);
    else if (url && label === '') out.text(url);
  }

  // Links left open by malformed markup still show where they point.
  while (links.length > 0) closeLink();
  const body = out.toString();
  return title && !body.startsWith('# ') ? `Title: ${title}\n\n${body}` : body;
}

/** A list inside a list item continues it line by line rather than as a new paragraph. */
function nestedList(name: string, depth: number): boolean {
  return (name === 'ul' || name === 'ol') && depth > 0;
}

/** Index just past the end tag matching an opened element, counting nested ones of the same name. */
function skipElement(html: string, from: number, name: string): number {
  const re = new RegExp(`<(/?)${name}(?=[\\s/>])[^>]*>`, 'gi');
  re.lastIndex = from;
  let depth = 1;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[1] === '/') depth--;
    else if (!m[0].endsWith('/>')) depth++;
    if (depth === 0) return re.lastIndex;
  }
  return html.length;
}
