import { isUtf8 } from 'node:buffer';
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import * as z from 'zod';
import { readFileNoFollow } from '../workspace/noFollowFiles';
import { formatBytes } from './text/formatBytes';
import { binaryReason } from './text/textFile';
import { defineTool, errorResult, textResult, type ToolContext, type ToolResult } from './tool';
import { expectedFailure } from './toolFailure';
import { keyArgument } from './toolPresentation';

export const readDefaultLimit = 2000;
export const readMaxLineLength = 2000;
/** Beyond this the output stops early with a note on how to continue. */
const maxOutputChars = 100_000;
const maxTextFileBytes = 32 * 1024 * 1024;
const maxImageBytes = 5 * 1024 * 1024;

const imageTypes: Record<string, { mediaType: string; magic: (b: Buffer) => boolean }> = {
  '.png': { mediaType: 'image/png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  '.jpg': { mediaType: 'image/jpeg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  '.jpeg': { mediaType: 'image/jpeg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  '.gif': { mediaType: 'image/gif', magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  '.webp': {
    mediaType: 'image/webp',
    magic: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
};

const inputSchema = z.object({
  file_path: z.string().min(1).describe('The file to read.'),
  offset: z.number().int().min(1).optional().describe('1-based line to start from.'),
  limit: z.number().int().min(1).optional().describe('How many lines to read.'),
});

export type ReadInput = z.infer<typeof inputSchema>;

export const readTool = defineTool<ReadInput>({
  name: 'read',
  description:
    `Reads a file, numbered like \`cat -n\`, ${readDefaultLimit} lines unless offset/limit say otherwise; lines over ` +
    `${readMaxLineLength} characters are cut. Images (png, jpg, gif, webp) come back as images; binary files are refused.`,
  category: 'read',
  present: (input) => ({ title: 'read', summary: keyArgument(input, 'read'), icon: 'file', details: { kind: 'fileChange', path: input.file_path, ...(input.offset || input.limit ? { range: readRange(input.offset, input.limit) } : {}) } }),
  inputSchema,
  async preview(input, ctx) {
    const path = await ctx.workspace.resolve(input.file_path);
    return { summary: ctx.workspace.display(path), paths: [path] };
  },
  async execute(input, ctx) {
    try {
      return await readFileForModel(input, ctx);
    } catch (err) {
      return expectedFailure(err);
    }
  },
});

async function readFileForModel(input: ReadInput, ctx: ToolContext): Promise<ToolResult> {
  const path = await ctx.workspace.resolve(input.file_path);
  const shown = ctx.workspace.display(path);
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') {
      return errorResult(`File not found: ${shown}. Use glob or ls to find the right path.`);
    }
    throw err;
  }
  if (info.isDirectory()) return errorResult(`${shown} is a directory, not a file. Use ls to list it.`);
  if (!info.isFile()) return errorResult(`${shown} is not a regular file.`);

  const image = imageTypes[extname(path).toLowerCase()];
  if (image && (await startsLikeImage(path, image.magic))) {
    if (info.size > maxImageBytes) {
      return errorResult(`${shown} is an image of ${formatBytes(info.size)}; images over ${formatBytes(maxImageBytes)} are not sent.`);
    }
    const bytes = await readFileNoFollow(path);
    await ctx.reads.record(path, bytes);
    return {
      output: [
        { type: 'text', text: `Image ${shown} (${image.mediaType}, ${formatBytes(bytes.length)}).` },
        { type: 'image', data: bytes.toString('base64'), mediaType: image.mediaType },
      ],
    };
  }
  if (info.size > maxTextFileBytes) {
    return errorResult(
      `${shown} is ${formatBytes(info.size)}, too large to read whole. Use grep to find what you need, ` +
        'or bash with head/tail/sed to read parts of it.',
    );
  }
  const bytes = await readFileNoFollow(path);
  const binary = binaryReason(bytes);
  if (binary) return errorResult(`Cannot read ${shown}: it is a binary file (${binary}).`);
  const text = bytes.toString('utf8');
  await ctx.reads.record(path, bytes);
  return textResult(renderLines(text, shown, input.offset ?? 1, input.limit ?? readDefaultLimit, bytes));
}

async function startsLikeImage(path: string, magic: (b: Buffer) => boolean): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    return magic(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

function renderLines(text: string, shown: string, offset: number, limit: number, bytes: Buffer): string {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body === '') return `(${shown} is empty)`;
  const lines = body.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const total = lines.length;
  if (offset > total) return `(${shown} has ${total} line${total === 1 ? '' : 's'}; offset ${offset} is past the end.)`;
  const out: string[] = [];
  let chars = 0;
  let last = offset - 1;
  for (let i = offset - 1; i < Math.min(total, offset - 1 + limit); i++) {
    let line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (line.length > readMaxLineLength) {
      line = `${line.slice(0, readMaxLineLength)}… [line truncated: ${line.length - readMaxLineLength} more characters]`;
    }
    const rendered = `${String(i + 1).padStart(6)}\t${line}`;
    if (chars + rendered.length > maxOutputChars && out.length > 0) break;
    out.push(rendered);
    chars += rendered.length + 1;
    last = i + 1;
  }
  let result = out.join('\n');
  if (last < total) {
    result += `\n\n(Showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to read more.)`;
  }
  if (!isUtf8(bytes)) {
    result += '\n\n(The file contains invalid UTF-8, shown as �; it cannot be edited safely with edit or write.)';
  }
  return result;
}

/** The lines a read asks for, as the card shows them ("from 40", "40–59", "1–20"). */
function readRange(offset: number | undefined, limit: number | undefined): string {
  const start = offset ?? 1;
  return limit === undefined ? `${start}–` : `${start}–${start + limit - 1}`;
}
