import * as z from 'zod';
import { errorMessage } from '../errors';
import { binaryReason, sniffBytes } from './text/textFile';
import { formatBytes } from './text/formatBytes';
import { defineTool, errorResult, textResult, type ToolContext, type ToolResult } from './tool';
import { htmlToText } from './web/htmlToText';
import { assertWebUrl, FetchError, httpGet } from './web/httpGet';
import { keyArgument } from './toolPresentation';

export const fetchMaxBytes = 5 * 1024 * 1024;
export const fetchMaxChars = 50_000;
export const fetchTimeoutMs = 30_000;

const inputSchema = z.object({
  url: z.string().min(1).describe('The URL.'),
});

export type FetchInput = z.infer<typeof inputSchema>;

export const fetchTool = defineTool<FetchInput>({
  name: 'fetch',
  description:
    'GETs an http(s) page or API (redirects followed) as text: HTML as readable text with links, JSON and plain ' +
    `text as-is; at most ${fetchMaxChars} characters.`,
  category: 'network',
  present: (input) => ({ title: 'fetch', summary: keyArgument(input, 'fetch'), icon: 'globe', details: { kind: 'fetchedPage', url: input.url } }),
  inputSchema,
  async preview(input) {
    return { summary: input.url, paths: [] };
  },
  async execute(input, ctx) {
    try {
      return await fetchForModel(input, ctx);
    } catch (err) {
      if (ctx.signal.aborted) return errorResult('Fetch cancelled.');
      if (err instanceof FetchError) return errorResult(err.message);
      if (err instanceof Error && err.name === 'TimeoutError') {
        return errorResult(`Fetching ${input.url} timed out after ${fetchTimeoutMs / 1000} s.`);
      }
      if (err instanceof TypeError) {
        // fetch reports network failures (DNS, refused connection, TLS) as TypeError with a cause.
        const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
        return errorResult(`Could not fetch ${input.url}: ${errorMessage(err)}${cause}`);
      }
      throw err;
    }
  },
});

async function fetchForModel(input: FetchInput, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.approval && !ctx.approval.approved) return errorResult('The fetch was not approved.');
  assertWebUrl(input.url);
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(fetchTimeoutMs)]);
  const res = await httpGet(input.url, { signal, maxBytes: fetchMaxBytes, userAgent: 'Keel (AI coding agent; fetch tool)' });
  const mediaType = res.contentType.split(';')[0].trim().toLowerCase();
  const header = [`URL: ${res.url}`, `Status: ${res.status} ${res.statusText}`.trim(), `Content-Type: ${res.contentType || 'unknown'}`];
  if (res.redirects.length > 0) header.splice(1, 0, `Redirected from: ${input.url}`);

  const looksHtml = mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
  const textual =
    looksHtml ||
    mediaType.startsWith('text/') ||
    /^application\/([\w.-]+\+)?(json|xml)$/.test(mediaType) ||
    mediaType === 'application/javascript' ||
    mediaType === '';
  // A declared text type may use another charset, so only NUL bytes disqualify it.
  const binary = res.body.subarray(0, sniffBytes).includes(0)
    ? 'it contains NUL bytes'
    : mediaType === ''
      ? binaryReason(res.body)
      : undefined;
  if (!textual || binary) {
    const why = binary ?? mediaType;
    return errorResult(`${header.join('\n')}\n\nThe response is not text (${why}, ${formatBytes(res.body.length)}); it is not shown.`);
  }
  const decoded = decode(res.body, res.contentType);
  const sniffedHtml = mediaType === '' && /^\s*(<!doctype html|<html)/i.test(decoded.slice(0, 512));
  let text = looksHtml || sniffedHtml ? htmlToText(decoded, res.url) : decoded;
  const notes: string[] = [];
  if (res.truncated) notes.push(`Only the first ${formatBytes(fetchMaxBytes)} of the response were read.`);
  if (text.length > fetchMaxChars) {
    notes.push(`Content cut at ${fetchMaxChars} of ${text.length} characters.`);
    text = text.slice(0, fetchMaxChars);
  }
  const result = [header.join('\n'), text, ...notes.map((n) => `(${n})`)].join('\n\n');
  return res.status >= 400 ? errorResult(result) : textResult(result);
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (charset) {
    let decoder: TextDecoder | undefined;
    try {
      decoder = new TextDecoder(charset);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      // An unknown charset label: UTF-8 is the web's default.
    }
    if (decoder) return decoder.decode(body);
  }
  return body.toString('utf8');
}
