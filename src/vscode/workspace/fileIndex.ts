import * as vscode from 'vscode';
import type { FileSearchResult } from '../../chat/bus/editorServices';
import { rankPaths, withFolders } from './fuzzyMatch';
import type { PathCandidate } from './fuzzyMatch';

const MAX_FILES = 20_000;
/** Typing a mention fires a search per keystroke: one listing serves them for a while. */
const FRESH_MS = 10_000;

/**
 * Workspace files for @-mentions: listed with findFiles (honouring files.exclude and
 * search.exclude), cached briefly, ranked by a fuzzy match on the relative path.
 */
export class FileIndex implements vscode.Disposable {
  private cache: { at: number; candidates: PathCandidate[] } | undefined;
  private listing: Promise<PathCandidate[]> | undefined;
  private readonly subscriptions: vscode.Disposable[];

  /** `watcher`: the runtime's one workspace watcher (not owned here). */
  constructor(watcher: vscode.FileSystemWatcher) {
    // Files appearing or going away make the listing stale; content changes do not matter.
    this.subscriptions = [watcher.onDidCreate(() => this.invalidate()), watcher.onDidDelete(() => this.invalidate())];
  }

  async search(query: string, limit: number, signal: AbortSignal): Promise<FileSearchResult[]> {
    const candidates = await this.candidates(signal);
    return rankPaths(query, candidates, limit);
  }

  invalidate(): void {
    this.cache = undefined;
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  private async candidates(signal: AbortSignal): Promise<PathCandidate[]> {
    if (this.cache && Date.now() - this.cache.at < FRESH_MS) return this.cache.candidates;
    this.listing ??= this.list(signal).finally(() => {
      this.listing = undefined;
    });
    return this.listing;
  }

  private async list(signal: AbortSignal): Promise<PathCandidate[]> {
    const source = new vscode.CancellationTokenSource();
    const onAbort = (): void => source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const uris = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_FILES, source.token);
      const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      const files = uris.map((uri) => vscode.workspace.asRelativePath(uri, multiRoot).replace(/\\/g, '/'));
      const candidates = withFolders(files);
      this.cache = { at: Date.now(), candidates };
      return candidates;
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}

/** files.exclude and search.exclude together (findFiles applies only the first by default). */
function excludeGlob(): string | undefined {
  const patterns = new Set<string>();
  for (const section of ['files', 'search']) {
    const excludes = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {};
    for (const [pattern, on] of Object.entries(excludes)) if (on === true) patterns.add(pattern);
  }
  if (patterns.size === 0) return undefined;
  return `{${[...patterns].join(',')}}`;
}
