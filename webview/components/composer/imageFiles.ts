import * as l10n from '@vscode/l10n';
import { MAX_IMAGE_BASE64_CHARS } from '../../../src/protocol/limits';
import { imageMediaTypeSchema } from '../../../src/protocol/uiMessage';
import type { ImageAttachment } from '../../../src/protocol/uiMessage';

/** Image types the protocol carries. */
export const ACCEPTED_IMAGE_TYPES = imageMediaTypeSchema.options.join(',');

export type ImageReadResult = { ok: true; image: ImageAttachment } | { ok: false; reason: string };

/** A pasted or chosen file as an image part (base64 without the data: prefix), or why not. */
export async function readImageFile(file: Blob & { name?: string }): Promise<ImageReadResult> {
  const name = file.name || l10n.t('the pasted image');
  const type = imageMediaTypeSchema.safeParse(file.type);
  if (!type.success) {
    return { ok: false, reason: l10n.t('{0} is not a PNG, JPEG, GIF or WebP image', name) };
  }
  const data = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
  if (data.length === 0) return { ok: false, reason: l10n.t('{0} is empty', name) };
  if (data.length > MAX_IMAGE_BASE64_CHARS) {
    return { ok: false, reason: l10n.t('{0} is larger than about 5 MB', name) };
  }
  return { ok: true, image: { mediaType: type.data, data } };
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000; // String.fromCharCode takes arguments on the stack: go in slices
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}
