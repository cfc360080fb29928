import * as z from 'zod';

/**
 * The language the chat page speaks and the translations it needs: only the webview's own
 * strings from the extension's catalogue (keyed by their English text), none for English.
 * The host puts it in the page it serves, so the first paint is already in the right language.
 */
export const pageLocaleSchema = z.strictObject({
  /** VS Code's display language, lower case (`en`, `zh-cn`). */
  language: z.string().min(2).max(35),
  strings: z.record(z.string(), z.string()),
});

export type PageLocale = z.infer<typeof pageLocaleSchema>;
