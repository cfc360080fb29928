import type { AgentMode } from '../../../src/protocol/sessionState';
import type { ImageAttachment, Mention } from '../../../src/protocol/uiMessage';

export interface ComposerDraft {
  text: string;
  mentions: Mention[];
  images: ImageAttachment[];
  mode: AgentMode | undefined;
}

/**
 * What the host adds from the editor ("Add to Chat") joined to the draft being written: each
 * mention once (the same file with other lines is another mention), the text after what is
 * typed, the images and the mode kept.
 */
export function joinDraft(draft: ComposerDraft, added: { text?: string; mentions?: readonly Mention[]; mode?: AgentMode }): ComposerDraft {
  const seen = new Set(draft.mentions.map((m) => JSON.stringify(m)));
  const mentions = [...draft.mentions];
  for (const mention of added.mentions ?? []) {
    const key = JSON.stringify(mention);
    if (seen.has(key)) continue;
    seen.add(key);
    mentions.push(mention);
  }
  const extra = added.text ?? '';
  const text = extra === '' ? draft.text : draft.text.trim() === '' ? extra : `${draft.text.replace(/\s+$/, '')}\n${extra}`;
  return { text, mentions, images: draft.images, mode: added.mode ?? draft.mode };
}
