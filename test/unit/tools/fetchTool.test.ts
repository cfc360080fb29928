import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchMaxBytes, fetchTool } from '../../../src/core/tools/fetchTool';
import { createToolEnv, textOf, type ToolEnv } from './toolTestKit';

let server: Server;
let origin: string;
let env: ToolEnv;

const page = `<!doctype html><html><head><title>Ignored &amp; title</title><style>body{color:red}</style>
<script>var secret = "do not show";</script></head>
<body><nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<h1>Main   Title</h1>
<p>First paragraph with a <a href="/docs/intro">relative link</a> and &lt;tags&gt; &amp; entities &#169; &#x263A;.</p>
<h2>List</h2>
<ul><li>one</li><li>two <b>bold</b></li></ul>
<ol><li>first</li><li>second</li></ol>
<pre>  keep   this
    spacing</pre>
<p>Inline <code>code()</code> here.</p>
</body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const hops = Number(url.searchParams.get('n') ?? '0');
    switch (url.pathname) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page);
        return;
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"a": [1, 2]}');
        return;
      case '/redirect':
        res.writeHead(302, { location: hops > 1 ? `/redirect?n=${hops - 1}` : '/json' });
        res.end();
        return;
      case '/to-file':
        res.writeHead(301, { location: 'file:///etc/passwd' });
        res.end();
        return;
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('y'.repeat(fetchMaxBytes + 1000));
        return;
      case '/long-text':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('z'.repeat(60_000));
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
        return;
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
        res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('no such page');
        return;
      default:
        res.writeHead(500);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
});
beforeEach(async () => {
  env = await createToolEnv('keel-fetch-');
});
afterEach(async () => {
  await env.cleanup();
});

const fetchText = async (url: string) => {
  const result = await env.run(fetchTool, { url });
  return { result, text: textOf(result) };
};

describe('fetch', () => {
  it('turns HTML into readable text', async () => {
    const { result, text } = await fetchText(`${origin}/page`);
    expect(result.isError).toBeFalsy();
    const body = text.slice(text.indexOf('\n\n') + 2);
    expect(body).toBe(
      [
        '# Main Title',
        '',
        `First paragraph with a relative link (${origin}/docs/intro) and <tags> & entities © ☺.`,
        '',
        '## List',
        '',
        '- one',
        '- two bold',
        '',
        '1. first',
        '2. second',
        '',
        '```',
        '  keep   this',
        '    spacing',
        '```',
        '',
        'Inline `code()` here.',
      ].join('\n'),
    );
    expect(text).not.toContain('secret');
    expect(text).not.toContain('color:red');
    expect(text).not.toContain('About');
  });

  it('returns JSON as it is, with the status and type', async () => {
    const { text } = await fetchText(`${origin}/json`);
    expect(text).toBe(`URL: ${origin}/json\nStatus: 200 OK\nContent-Type: application/json\n\n{"a": [1, 2]}`);
  });

  it('follows up to 5 redirects and refuses the sixth', async () => {
    const ok = await fetchText(`${origin}/redirect?n=5`);
    expect(ok.result.isError).toBeFalsy();
    expect(ok.text).toContain(`URL: ${origin}/json`);
    expect(ok.text).toContain(`Redirected from: ${origin}/redirect?n=5`);
    const tooMany = await fetchText(`${origin}/redirect?n=6`);
    expect(tooMany.result.isError).toBe(true);
    expect(tooMany.text).toMatch(/Too many redirects/);
  });

  it('refuses non-web schemes, also behind a redirect', async () => {
    for (const url of ['file:///etc/passwd', 'data:text/plain,hi', 'ftp://example.com/x', 'javascript:alert(1)']) {
      const { result, text } = await fetchText(url);
      expect(result.isError, url).toBe(true);
      expect(text).toMatch(/Only http and https/);
    }
    const redirected = await fetchText(`${origin}/to-file`);
    expect(redirected.result.isError).toBe(true);
    expect(redirected.text).toMatch(/Only http and https/);
  });

  it('reads at most 5 MB and caps the text at 50,000 characters, saying so', async () => {
    const big = await fetchText(`${origin}/big`);
    expect(big.text).toContain('Only the first 5.0 MB of the response were read.');
    expect(big.text).toContain(`Content cut at 50000 of ${fetchMaxBytes} characters.`);
    const long = await fetchText(`${origin}/long-text`);
    expect(long.text).toContain('Content cut at 50000 of 60000 characters.');
    expect(long.text).not.toContain('Only the first');
  });

  it('refuses binary content and decodes declared charsets', async () => {
    const image = await fetchText(`${origin}/image`);
    expect(image.result.isError).toBe(true);
    expect(image.text).toMatch(/not text/);
    expect((await fetchText(`${origin}/latin1`)).text.endsWith('café')).toBe(true);
  });

  it('marks HTTP errors as errors and shows the body', async () => {
    const { result, text } = await fetchText(`${origin}/missing`);
    expect(result.isError).toBe(true);
    expect(text).toContain('Status: 404 Not Found');
    expect(text).toContain('no such page');
  });

  it('reports an unreachable server clearly', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { result, text } = await fetchText(`http://127.0.0.1:${port}/`);
    expect(result.isError).toBe(true);
    expect(text).toContain(`Could not fetch http://127.0.0.1:${port}/`);
  });
});
