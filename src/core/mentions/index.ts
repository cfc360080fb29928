// The mentions subsystem as the rest of Keel sees it: src/chat, src/vscode and src/cli import
// from here, never from the files inside (the layer check forbids deep imports).

export { isMentionExpansion, mentionLabel } from './mentionBlock';
export { mentionNotesOf } from './mentionTypes';
export { resourceMentions, withResourceMentions } from './resourceMentions';
export type { Mention, MentionNote } from './mentionTypes';
