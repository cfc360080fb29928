import type { FileChange } from '../../core/tools';
import type { TextDiff } from '../parts/changeReverts';
import type { RequestParams, RequestResult } from '../../protocol/catalogue';
import type { ConfigSetParams, UiConfig } from '../../protocol/uiConfig';
import type { LineRange } from '../../protocol/uiMessage';

export type UiCommand = RequestParams<'command.run'>['command'];
export type FileSearchResult = RequestResult<'files.search'>['results'][number];

/**
 * What the chat's requests need from the editor itself. The bridge stays free of `vscode`
 * (and testable); vscodeServices.ts implements this with the real API.
 */
export interface EditorServices {
  configGet(): Promise<UiConfig>;
  configSet(params: ConfigSetParams): Promise<UiConfig>;
  searchFiles(query: string, limit: number, signal: AbortSignal): Promise<FileSearchResult[]>;
  /** `path` as in mentions: relative to its workspace folder (prefixed by the folder's name in multi-root). */
  openFile(path: string, range?: LineRange): Promise<boolean>;
  openLink(url: string): Promise<boolean>;
  insertCode(code: string): Promise<boolean>;
  openDiff(approvalId: string, change: FileChange): Promise<boolean>;
  /** Two texts side by side, read-only (what a command did to a file), without taking focus from the chat. */
  openTextDiff(diff: TextDiff): Promise<boolean>;
  openSettings(query?: string): Promise<boolean>;
  runCommand(command: UiCommand, args?: string[]): Promise<boolean>;
  /** Dropped `file:` URIs as mentions of the workspace's files and folders; how many were outside it. */
  mentionsFromUris(uris: readonly string[]): Promise<RequestResult<'mentions.fromUris'>>;
}
