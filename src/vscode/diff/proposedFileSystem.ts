import * as vscode from 'vscode';

interface Entry {
  data: Uint8Array;
  ctime: number;
  mtime: number;
}

/**
 * Keel's proposals as files VS Code can open, edit and save, all in memory: nothing here
 * ever touches the disk. Only proposals Keel put here exist; the person can change their
 * content (Save keeps it here) but cannot create, delete or rename them.
 */
export class ProposedFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Entry>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile: vscode.Event<vscode.FileChangeEvent[]> = this.changed.event;

  /** Puts a proposal's text in place (a new proposal, or Keel changing it). */
  set(uri: vscode.Uri, text: string): void {
    const now = Date.now();
    const key = uri.toString();
    const existing = this.files.get(key);
    this.files.set(key, { data: new TextEncoder().encode(text), ctime: existing?.ctime ?? now, mtime: now });
    this.changed.fire([{ type: existing ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  text(uri: vscode.Uri): string | undefined {
    const entry = this.files.get(uri.toString());
    return entry ? new TextDecoder().decode(entry.data) : undefined;
  }

  /** Forgets a decided proposal (its editors are closed first; no event, so VS Code does not try to reload it). */
  remove(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }

  watch(): vscode.Disposable {
    // Every change is announced through onDidChangeFile already.
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.files.get(uri.toString());
    if (entry) return { type: vscode.FileType.File, ctime: entry.ctime, mtime: entry.mtime, size: entry.data.length };
    if (this.isFolder(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = `${uri.with({ path: uri.path.replace(/\/?$/, '/') }).toString()}`;
    const names = new Map<string, vscode.FileType>();
    for (const key of this.files.keys()) {
      if (!key.startsWith(prefix)) continue;
      // The approval id is the query: a listing names the file, not the proposal.
      const rest = key.slice(prefix.length).replace(/\?.*$/, '').split('/');
      names.set(decodeURIComponent(rest[0]!), rest.length > 1 ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...names];
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.files.get(uri.toString());
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const entry = this.files.get(uri.toString());
    if (!entry) throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Keel proposals exist only while a change waits for approval.'));
    entry.data = content;
    entry.mtime = Date.now();
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(oldUri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(oldUri);
  }

  dispose(): void {
    this.files.clear();
    this.changed.dispose();
  }

  private isFolder(uri: vscode.Uri): boolean {
    const prefix = `${uri.with({ path: uri.path.replace(/\/?$/, '/') }).toString()}`;
    for (const key of this.files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }
}
