import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../../src/core/tools/web/htmlEntities';
import { htmlToText } from '../../../src/core/tools/web/htmlToText';

describe('htmlToText', () => {
  it('adds the title when the page has no top heading', () => {
    expect(htmlToText('<html><head><title>My  Page</title></head><body><p>Hi</p></body></html>')).toBe('Title: My Page\n\nHi');
  });

  it('drops nested navigation and scripts that contain tag-like text', () => {
    const html = '<nav><nav>inner</nav>still nav</nav><p>kept</p><script>if (a < b) { x = "</p>"; }</script><p>after</p>';
    expect(htmlToText(html)).toBe('kept\n\nafter');
  });

  it('writes links as text (url), resolving relative ones, and skips fragment and javascript links', () => {
    const html = '<p><a href="b/c?x=1&amp;y=2">rel</a> <a href="#top">frag</a> <a href="javascript:void(0)">js</a> <a href="https://x.org/">https://x.org/</a></p>';
    expect(htmlToText(html, 'https://example.com/a/')).toBe('rel (https://example.com/a/b/c?x=1&y=2) frag js https://x.org/');
  });

  it('keeps image alt text and table cells', () => {
    const html = '<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table><img src="x.png" alt="A chart">';
    expect(htmlToText(html)).toBe('Name | Value\na | 1\n\n[image: A chart]');
  });

  it('indents nested lists', () => {
    expect(htmlToText('<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>')).toBe('- a\n  - b\n- c');
  });

  it('survives malformed markup', () => {
    expect(htmlToText('<p>1 < 2 and <b>bold<p>next <a href=x>unclosed')).toBe('1 < 2 and bold\n\nnext unclosed (x)');
    expect(htmlToText('<div class="a" "broken>text</div>')).toBe('text');
    expect(htmlToText('<!-- comment --><p>x<!-- unterminated')).toBe('x');
  });

  it('collapses whitespace and line breaks from br', () => {
    expect(htmlToText('<p>a\n   b<br>c</p>')).toBe('a b\nc');
  });
});

describe('decodeEntities', () => {
  it('decodes named, decimal and hex references', () => {
    expect(decodeEntities('&lt;&gt;&amp;&quot;&#39;&#x41;&mdash;&nbsp;')).toBe('<>&"\'A—\u00a0');
  });

  it('leaves unknown or unterminated names alone, but accepts legacy ones', () => {
    expect(decodeEntities('&bogus; &mdash &amp')).toBe('&bogus; &mdash &');
    expect(decodeEntities('&#0; &#xD800;')).toBe('\uFFFD \uFFFD');
  });
});
