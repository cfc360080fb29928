import type { ExportSource } from '../../core/session';

export type ExportFormat = 'markdown' | 'json';

/**
 * What the session actions need from the editor: a confirmation before deleting and a place
 * for exports. The controller stays free of `vscode`; vscodeSessionUi.ts implements it.
 */
export interface SessionUi {
  /** Asks before a conversation is deleted; true only when the person confirmed. */
  confirmDelete(title: string): Promise<boolean>;
  /** Shows or saves an export; false when the person cancelled the save dialog. */
  exportSession(source: ExportSource, format: ExportFormat): Promise<boolean>;
}
