import { describe, expect, it } from 'vitest';
import { convertToolResult } from '../../../../src/core/mcp/mcpResult';

const png = 'iVBORw0KGgo=';

describe('convertToolResult', () => {
  it('plain text stays text', () => {
    expect(convertToolResult({ content: [{ type: 'text', text: 'hello' }] })).toEqual({ output: 'hello' });
  });

  it('keeps the error flag', () => {
    expect(convertToolResult({ content: [{ type: 'text', text: 'no such file' }], isError: true })).toEqual({ output: 'no such file', isError: true });
  });

  it('passes images as image parts and text around them in order', () => {
    const r = convertToolResult({ content: [{ type: 'text', text: 'here:' }, { type: 'image', data: png, mimeType: 'image/png' }] });
    expect(r.output).toEqual([
      { type: 'text', text: 'here:' },
      { type: 'image', data: png, mediaType: 'image/png' },
    ]);
  });

  it('describes what the model cannot take (svg, audio, binary resources)', () => {
    const r = convertToolResult({
      content: [
        { type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', blob: 'AAAAAAAA' } },
      ],
    });
    expect(r.output).toMatch(/image of type image\/svg\+xml left out/);
    expect(r.output).toMatch(/audio audio\/wav, 3 bytes/);
    expect(r.output).toMatch(/Resource file:\/\/\/x.bin \(application\/octet-stream\): binary, 6 bytes/);
  });

  it('includes embedded text resources and resource links', () => {
    const r = convertToolResult({
      content: [
        { type: 'resource', resource: { uri: 'test://static/1', mimeType: 'text/plain', text: 'resource body' } },
        { type: 'resource_link', uri: 'test://static/2', name: 'Second', description: 'the next one' },
      ],
    });
    expect(r.output).toBe('Resource test://static/1 (text/plain):\nresource body\nResource link: Second test://static/2 — the next one');
  });

  it('adds structured content unless a text block already holds the same JSON', () => {
    expect(convertToolResult({ content: [], structuredContent: { sum: 3 } }).output).toBe('Structured content:\n{\n  "sum": 3\n}');
    expect(convertToolResult({ content: [{ type: 'text', text: '{"sum": 3}' }], structuredContent: { sum: 3 } }).output).toBe('{"sum": 3}');
    expect(convertToolResult({ content: [{ type: 'text', text: 'done' }], structuredContent: { sum: 3 } }).output).toMatch(/done\nStructured content:/);
  });

  it('says so when a tool returns nothing', () => {
    expect(convertToolResult({ content: [] }).output).toBe('(the tool returned no content)');
  });

  it('cuts text past the cap with a note saying how much there was', () => {
    const r = convertToolResult({ content: [{ type: 'text', text: 'a'.repeat(60) }, { type: 'text', text: 'b'.repeat(60) }] }, { text: 100, image: 1000 });
    const out = r.output as string;
    expect(out.startsWith('a'.repeat(60))).toBe(true);
    expect(out).toContain('b'.repeat(40));
    expect(out).not.toContain('b'.repeat(41));
    expect(out).toMatch(/\[truncated: the result had 120 characters of text; only the first 100 are shown\]/);
  });

  it('leaves out images past the image cap with a note', () => {
    const r = convertToolResult({ content: [{ type: 'image', data: 'A'.repeat(80), mimeType: 'image/png' }, { type: 'image', data: 'B'.repeat(80), mimeType: 'image/png' }] }, { text: 100, image: 100 });
    expect(r.output).toEqual([
      { type: 'image', data: 'A'.repeat(80), mediaType: 'image/png' },
      { type: 'text', text: '[1 image(s) left out: the result\'s images exceeded 100 bytes of data]' },
    ]);
  });
});
