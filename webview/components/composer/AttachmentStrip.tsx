import * as l10n from '@vscode/l10n';
import type { ImageAttachment, Mention } from '../../../src/protocol/uiMessage';
import { Icon } from '../../ui/Icon';
import { IconButton } from '../../ui/IconButton';
import { mentionIcon, mentionLabel } from '../messages/MentionChip';

export interface AttachmentStripProps {
  mentions: readonly Mention[];
  images: readonly ImageAttachment[];
  planMode: boolean;
  onRemoveMention: (index: number) => void;
  onRemoveImage: (index: number) => void;
  onLeavePlanMode: () => void;
}

/** What goes with the next message: files, images, plan mode; each can be taken off. */
export function AttachmentStrip(props: AttachmentStripProps) {
  const { mentions, images, planMode } = props;
  if (mentions.length === 0 && images.length === 0 && !planMode) return null;
  return (
    <div className="attachment-strip">
      {planMode ? (
        <span className="attachment-chip attachment-plan" data-testid="plan-chip">
          <Icon name="checklist" /> {l10n.t('Plan mode')}
          <IconButton icon="close" label={l10n.t('Send in act mode')} onClick={props.onLeavePlanMode} />
        </span>
      ) : null}
      {mentions.map((mention, index) => (
        <span key={`${mentionLabel(mention)}-${index}`} className="attachment-chip" data-testid="mention-chip">
          <Icon name={mentionIcon(mention)} />
          {mentionLabel(mention)}
          <IconButton icon="close" label={l10n.t('Remove {0}', mentionLabel(mention))} onClick={() => props.onRemoveMention(index)} />
        </span>
      ))}
      {images.map((image, index) => (
        <span key={`image-${index}`} className="attachment-image" data-testid="image-attachment">
          <img src={`data:${image.mediaType};base64,${image.data}`} alt={l10n.t('Attached image {0}', index + 1)} />
          <IconButton icon="close" label={l10n.t('Remove image {0}', index + 1)} onClick={() => props.onRemoveImage(index)} />
        </span>
      ))}
    </div>
  );
}
