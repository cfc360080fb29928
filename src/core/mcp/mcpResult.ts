import type { ToolOutputPart, ToolResult } from '../tools/tool';

/** Past this much text a result is cut, with a note saying how much was left out. */
export const defaultTextCap = 100_000;
/** Past this much image data (base64 characters) further images become notes. */
export const defaultImageCap = 5_000_000;

export interface ResultCaps {
  text: number;
  image: number;
}

/** What the model can take as an image: other media types are described in text. */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * An MCP tool result in the form Keel's loop passes to the model: text, images, embedded and
 * linked resources and structured content all kept, then cut to the caps with a note.
 * `raw` is what the server sent (already checked by the SDK against the protocol's schema).
 */
export function convertToolResult(raw: unknown, caps: ResultCaps = { text: defaultTextCap, image: defaultImageCap }): ToolResult {
  const r = (raw ?? {}) as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown };
  const parts: ToolOutputPart[] = [];
  const content: unknown[] = Array.isArray(r.content) ? r.content : [];
  for (const item of content) parts.push(...convertContent(item));
  if (r.structuredContent !== undefined) {
    const json = JSON.stringify(r.structuredContent, null, 2);
    // Servers usually repeat structured content as a text block; the model needs it once.
    const repeated = parts.some((p) => p.type === 'text' && sameJson(p.text, r.structuredContent));
    if (!repeated) parts.push({ type: 'text', text: `Structured content:\n${json}` });
  }
  if (content.length === 0 && r.structuredContent === undefined && r.toolResult !== undefined) {
    // Protocol 2024-10-07 servers answer with `toolResult` instead of content.
    parts.push({ type: 'text', text: typeof r.toolResult === 'string' ? r.toolResult : JSON.stringify(r.toolResult, null, 2) });
  }
  const isError = r.isError === true;
  const capped = capParts(parts, caps);
  const output: string | ToolOutputPart[] = capped.every((p) => p.type === 'text')
    ? capped.map((p) => (p as { text: string }).text).join('\n') || '(the tool returned no content)'
    : capped;
  return isError ? { output, isError } : { output };
}

function convertContent(item: unknown): ToolOutputPart[] {
  const c = (item ?? {}) as Record<string, unknown>;
  switch (c.type) {
    case 'text':
      return [{ type: 'text', text: String(c.text ?? '') }];
    case 'image': {
      const mediaType = String(c.mimeType ?? '');
      if (imageTypes.has(mediaType) && typeof c.data === 'string') return [{ type: 'image', data: c.data, mediaType }];
      return [{ type: 'text', text: `[image of type ${mediaType || 'unknown'} left out: the model takes PNG, JPEG, GIF or WebP]` }];
    }
    case 'audio':
      return [{ type: 'text', text: `[audio ${String(c.mimeType ?? '')}, ${base64Bytes(c.data)} bytes: not passed to the model]` }];
    case 'resource': {
      const res = (c.resource ?? {}) as Record<string, unknown>;
      const head = `Resource ${String(res.uri ?? '')}${res.mimeType ? ` (${String(res.mimeType)})` : ''}`;
      if (typeof res.text === 'string') return [{ type: 'text', text: `${head}:\n${res.text}` }];
      const mediaType = String(res.mimeType ?? '');
      if (typeof res.blob === 'string' && imageTypes.has(mediaType)) {
        return [{ type: 'text', text: `${head}:` }, { type: 'image', data: res.blob, mediaType }];
      }
      return [{ type: 'text', text: `${head}: binary, ${base64Bytes(res.blob)} bytes (not shown)` }];
    }
    case 'resource_link': {
      const desc = c.description ? ` — ${String(c.description)}` : '';
      return [{ type: 'text', text: `Resource link: ${String(c.name ?? '')} ${String(c.uri ?? '')}${c.mimeType ? ` (${String(c.mimeType)})` : ''}${desc}` }];
    }
    default:
      return [{ type: 'text', text: `[content of type ${JSON.stringify(c.type)} not understood by Keel]` }];
  }
}

function capParts(parts: ToolOutputPart[], caps: ResultCaps): ToolOutputPart[] {
  const totalText = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  let textLeft = caps.text;
  let imageLeft = caps.image;
  const out: ToolOutputPart[] = [];
  let cut = false;
  let imagesDropped = 0;
  for (const p of parts) {
    if (p.type === 'image') {
      if (p.data.length <= imageLeft) {
        out.push(p);
        imageLeft -= p.data.length;
      } else imagesDropped++;
      continue;
    }
    if (textLeft <= 0) {
      cut = true;
      continue;
    }
    if (p.text.length > textLeft) {
      out.push({ type: 'text', text: p.text.slice(0, textLeft) });
      textLeft = 0;
      cut = true;
    } else {
      out.push(p);
      textLeft -= p.text.length;
    }
  }
  if (cut) out.push({ type: 'text', text: `\n[truncated: the result had ${totalText} characters of text; only the first ${caps.text} are shown]` });
  if (imagesDropped) out.push({ type: 'text', text: `[${imagesDropped} image(s) left out: the result's images exceeded ${caps.image} bytes of data]` });
  return out;
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

function base64Bytes(data: unknown): number {
  return typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0;
}
