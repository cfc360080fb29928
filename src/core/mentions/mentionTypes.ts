import * as z from 'zod';

const lineRange = z.object({ startLine: z.number().int().min(1), endLine: z.number().int().min(1) });

/**
 * What the person @-mentioned in a message. Files and folders use the path form of the
 * protocol's mentions (relative to their workspace folder, prefixed by the folder's name in
 * a multi-root workspace); the rest name something the editor or git knows.
 */
export const mentionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), path: z.string().min(1), range: lineRange.optional() }),
  z.object({ kind: z.literal('folder'), path: z.string().min(1), range: lineRange.optional() }),
  /** Every problem (diagnostic) in the workspace. */
  z.object({ kind: z.literal('problems') }),
  /** The active editor's selection. */
  z.object({ kind: z.literal('selection') }),
  /**
   * The working tree's diff against HEAD, plus untracked files; with `base`, the branch's
   * commits since it left `base` instead (`git diff base...HEAD`).
   */
  z.object({ kind: z.literal('git'), base: z.string().min(1).max(200).optional() }),
  /** The last command in Keel's terminal and its output. */
  z.object({ kind: z.literal('terminal') }),
  /** A web page, fetched through the fetch tool (and its approval). */
  z.object({ kind: z.literal('url'), url: z.string().min(1) }),
  /** A resource of an MCP server (`@server:uri`), read from the server as the message is sent. */
  z.object({ kind: z.literal('resource'), server: z.string().min(1), uri: z.string().min(1) }),
]);

export type Mention = z.output<typeof mentionSchema>;
export type MentionKind = Mention['kind'];

/** How a mention fared: shown whole, cut to fit, left out for lack of budget, or not expandable. */
export type MentionStatus = 'included' | 'cut' | 'omitted' | 'failed';

export interface MentionOutcome {
  mention: Mention;
  /** `@src/a.ts`, `@problems`, `@https://…`. */
  label: string;
  status: MentionStatus;
  tokens: number;
  /** Why it was cut, left out or failed. */
  note?: string;
}

/** What the log keeps of a mention that was not attached whole, so a resumed view can say so. */
export const mentionNoteSchema = z.object({
  label: z.string(),
  status: z.enum(['cut', 'omitted', 'failed']),
  note: z.string(),
});
export type MentionNote = z.output<typeof mentionNoteSchema>;

/** The notes for the mentions that were cut, left out or could not be attached. */
export function mentionNotesOf(outcomes: readonly MentionOutcome[]): MentionNote[] {
  const notes: MentionNote[] = [];
  for (const o of outcomes) if (o.status !== 'included') notes.push({ label: o.label, status: o.status, note: o.note ?? '' });
  return notes;
}

export interface ExpandedMentions {
  /** The text part added to the user message; '' when there were no mentions. */
  text: string;
  outcomes: MentionOutcome[];
  tokens: number;
}
