// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { BlockHtmlCache } from '../../../webview/markdown/blockHtmlCache';
import { highlightCode } from '../../../webview/markdown/highlight';
import { IncrementalBlocks } from '../../../webview/markdown/markdownBlocks';
import type { MarkdownBlock } from '../../../webview/markdown/markdownBlocks';
import { lexMarkdown, renderTokens } from '../../../webview/markdown/markdownEngine';
import { sanitizeHtml } from '../../../webview/markdown/sanitizeHtml';

const ANSWER = [
  '# Plan',
  '',
  'First we read `src/app.ts` and the [docs](https://example.com/docs).',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  'if (answer > 1) console.log("<b>big</b>");',
  '```',
  '',
  '- one',
  '- two',
  '',
  '1. first',
  '2. second',
  '',
  '> quoted',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  'See [the spec][spec] for more.',
  '',
  '[spec]: https://example.com/spec',
  '',
  'Done.',
].join('\n');

/** The message as a stream of small deltas, the way the host sends it. */
function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function html(block: MarkdownBlock): string {
  return block.kind === 'html' ? renderTokens(block.tokens) : `<code>${block.code}</code>`;
}

function render(markdown: string): string {
  return renderTokens(lexMarkdown(markdown, {}).tokens);
}

describe('incremental markdown blocks', () => {
  it('ends with the same blocks as splitting the whole text at once', () => {
    const streamed = new IncrementalBlocks();
    let text = '';
    for (const delta of chunks(ANSWER, 3)) {
      text += delta;
      streamed.update(text);
    }
    const whole = new IncrementalBlocks().update(ANSWER);
    expect(streamed.update(ANSWER).map((block) => block.raw)).toEqual(whole.map((block) => block.raw));
    expect(whole.map((block) => block.raw).join('')).toBe(ANSWER);
    expect(whole.map((block) => block.kind)).toContain('code');
  });

  it('keeps finished blocks as the same objects while the tail grows', () => {
    const blocks = new IncrementalBlocks();
    const first = blocks.update('# Title\n\nA paragraph');
    const second = blocks.update('# Title\n\nA paragraph that grows');
    expect(second[0]).toBe(first[0]);
    expect(second[1]?.raw).toBe('A paragraph that grows');
  });

  it('lexes only the growing tail, not the whole message on every delta', () => {
    const long = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with some words in it.`).join('\n\n');
    const blocks = new IncrementalBlocks();
    let text = '';
    for (const delta of chunks(long, 20)) {
      text += delta;
      blocks.update(text);
    }
    // Re-lexing everything each time would cost about length² / (2 × 20) ≈ 19 million characters.
    expect(blocks.lexedChars).toBeLessThan(long.length * 4);
  });

  it('while a reply streams, lexes at new lines only, and ends with the blocks of the whole text', () => {
    const streamed = new IncrementalBlocks();
    let text = '';
    for (const delta of chunks(ANSWER, 3)) {
      text += delta;
      streamed.update(text, true);
    }
    const lexedWhileStreaming = streamed.lexedChars;
    const done = streamed.update(ANSWER);
    // The same as lexing the tail on every delta (a reference used before its definition
    // stays literal either way: a finished block is not lexed again).
    const everyDelta = new IncrementalBlocks();
    text = '';
    for (const delta of chunks(ANSWER, 3)) everyDelta.update((text += delta));
    expect(done.map(html)).toEqual(everyDelta.update(ANSWER).map(html));
    expect(done.map((block) => block.raw)).toEqual(new IncrementalBlocks().update(ANSWER).map((block) => block.raw));
    // The end of the stream lexes the open block once more, and only that.
    expect(streamed.lexedChars).toBeGreaterThan(lexedWhileStreaming);
    expect(streamed.update(ANSWER)).toBe(done);
  });

  it('appends a delta on the same line of a paragraph without lexing it', () => {
    const blocks = new IncrementalBlocks();
    blocks.update('# Title\n\nOne paragraph', true);
    const lexed = blocks.lexedChars;
    const shown = blocks.update('# Title\n\nOne paragraph that **grows**', true);
    expect(blocks.lexedChars).toBe(lexed);
    expect(shown.at(-1)?.raw).toBe('One paragraph that **grows**');
    // A new line may begin a new block: it is lexed.
    const split = blocks.update('# Title\n\nOne paragraph that **grows**\n```ts\nconst a', true);
    expect(blocks.lexedChars).toBeGreaterThan(lexed);
    expect(split.map((block) => block.kind)).toEqual(['html', 'html', 'code']);
  });

  it('streams one long paragraph without lexing it again for every delta', () => {
    const long = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
    const blocks = new IncrementalBlocks();
    let text = '';
    for (const delta of chunks(long, 8)) {
      text += delta;
      blocks.update(text, true);
    }
    expect(blocks.lexedChars).toBeLessThan(100);
    expect(blocks.update(long).map(html)).toEqual([render(long)]);
  });

  it('resolves a reference link whose definition came in an earlier block', () => {
    const blocks = new IncrementalBlocks();
    const text = '[spec]: https://example.com/spec\n\nRead [the spec][spec]';
    let shown: readonly MarkdownBlock[] = [];
    for (let i = 1; i <= text.length; i++) shown = blocks.update(text.slice(0, i));
    expect(html(shown.at(-1) as MarkdownBlock)).toContain('data-href="https://example.com/spec"');
  });

  it('renders each finished block once while streaming; only the tail is re-rendered', () => {
    const cache = new BlockHtmlCache();
    const blocks = new IncrementalBlocks();
    const deltas = chunks(ANSWER, 4);
    let text = '';
    let finishedBlockRenders = 0;
    for (const delta of deltas) {
      text += delta;
      const shown = blocks.update(text);
      shown.forEach((block, index) => {
        if (block.kind !== 'html') return;
        const final = index < shown.length - 1;
        const before = cache.renders;
        cache.html(block.raw, block.tokens, final);
        if (final && cache.renders > before) finishedBlockRenders++;
      });
    }
    const finalBlocks = blocks.update(ANSWER).filter((block) => block.kind === 'html');
    // Every finished block was rendered exactly once (when it stopped being the tail).
    expect(finishedBlockRenders).toBeLessThanOrEqual(finalBlocks.length);
    // Far fewer renders than rendering every block on every delta.
    expect(cache.renders).toBeLessThan(deltas.length + finalBlocks.length + 1);

    const rendersAfterStream = cache.renders;
    for (const block of finalBlocks) if (block.kind === 'html') cache.html(block.raw, block.tokens, true);
    // Drawing the finished message again (e.g. a row scrolled back into view) parses only the former tail.
    expect(cache.renders - rendersAfterStream).toBeLessThanOrEqual(1);
  });
});

describe('markdown sanitizing', () => {
  it('removes scripts, event handlers and inline styles from model HTML', () => {
    const out = render(
      'Hi <script>alert(1)</script><b onclick="steal()" style="color:red">bold</b>\n\n<iframe src="https://evil.example"></iframe>',
    );
    expect(out).not.toMatch(/<script|onclick|style=|<iframe/i);
    expect(out).toContain('<b>bold</b>');
  });

  it('turns http(s) links into data-href links and drops javascript:, command: and file: links', () => {
    const out = render(
      '[docs](https://example.com/a?b=1) [x](javascript:alert(1)) [run](command:workbench.action.terminal.new) ' +
        '[f](file:///etc/passwd) <a href="command:evil">raw</a> <a href="JaVaScRiPt:alert(2)">js</a>',
    );
    expect(out).toContain('data-href="https://example.com/a?b=1"');
    expect(out).not.toMatch(/\shref=/i);
    expect(out).not.toMatch(/javascript:|command:|file:/i);
    // The words survive, without a link.
    expect(out).toContain('run');
    expect(out).toContain('raw');
  });

  it('never emits an <img>: remote images become click-to-load links, others a note', () => {
    const out = render(
      '![diagram](https://example.com/d.png) <img src="http://tracker.example/p.gif" alt="pixel" onerror="x()"> ![local](data:image/png;base64,AAAA)',
    );
    expect(out).not.toMatch(/<img/i);
    expect(out).toContain('data-href="https://example.com/d.png"');
    expect(out).toContain('>diagram (click to load)');
    expect(out).not.toMatch(/\p{Extended_Pictographic}/u);
    expect(out).toContain('data-href="http://tracker.example/p.gif"');
    expect(out).toContain('not shown');
    expect(out).not.toContain('onerror');
  });

  it('drops model-written data attributes, ids and classes that could pose as UI', () => {
    const out = sanitizeHtml(
      '<div id="root" class="approval-card" data-testid="approve" data-href="https://x.example">fake</div><input type="text" value="x"><input type="checkbox" checked>',
    );
    expect(out).not.toMatch(/id=|approval-card|data-testid|data-href/);
    expect(out).not.toContain('type="text"');
    expect(out).toMatch(/<input[^>]*type="checkbox"[^>]*disabled/);
  });

  it('links workspace files named in code style or by a relative link to their lines, and leaves other code alone', () => {
    const out = render(
      'See `src/parse.ts:40-52`, `lib/a.js#L7`, `app.ts:3:9`, [the test](test/parse.test.ts#L12-L20) and `src/util/`.\n\n' +
        'Not files: `console.log`, `package.json`, `1.2.3`, `npm test`.\n\n```\nsrc/in/a/block.ts:1\n```',
    );
    const doc = new DOMParser().parseFromString(`<body>${out}</body>`, 'text/html');
    const links = [...doc.querySelectorAll('[data-file]')].map((el) => [el.getAttribute('data-file'), el.getAttribute('data-start-line'), el.getAttribute('data-end-line')]);
    expect(links).toEqual([
      ['src/parse.ts', '40', '52'],
      ['lib/a.js', '7', '7'],
      ['app.ts', '3', '3'],
      ['test/parse.test.ts', '12', '20'],
    ]);
    for (const el of doc.querySelectorAll('[data-file]')) {
      expect(el.getAttribute('role')).toBe('link');
      expect(el.getAttribute('tabindex')).toBe('0');
    }
    // Model HTML cannot plant a file link of its own: the attribute is dropped, and only text makes one.
    expect(sanitizeHtml('<span data-file="src/a.ts">x</span>')).not.toContain('data-file');
  });

  it('keeps ordinary markdown intact', () => {
    const out = render('## Title\n\n- **bold** and `code`\n\n| a |\n|---|\n| 1 |');
    expect(out).toContain('<h2>Title</h2>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<code>code</code>');
    expect(out).toContain('<table>');
  });
});

describe('code highlighting', () => {
  it('escapes everything and marks keywords, strings and comments', () => {
    const out = highlightCode('const x = "<script>"; // note & more', 'ts');
    expect(out).toContain('<span class="tok-keyword">const</span>');
    expect(out).toContain('<span class="tok-string">&quot;&lt;script&gt;&quot;</span>');
    expect(out).toContain('<span class="tok-comment">// note &amp; more</span>');
    expect(out).not.toContain('<script>');
  });

  it('keeps the text exactly, whatever the language', () => {
    const code = 'def f(x):\n    """doc"""\n    return x + 0x1F  # hex\n';
    for (const language of ['python', 'js', 'bash', 'unknown', undefined]) {
      const text = new DOMParser().parseFromString(`<pre>${highlightCode(code, language)}</pre>`, 'text/html').body
        .textContent;
      expect(text, String(language)).toBe(code);
    }
  });

  it('colours diff lines', () => {
    const out = highlightCode('@@ -1 +1 @@\n-old\n+new', 'diff');
    expect(out).toContain('<span class="tok-removed">-old</span>');
    expect(out).toContain('<span class="tok-added">+new</span>');
  });
});
