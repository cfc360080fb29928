import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { ProposalReview } from '../../core/diff';
import { errorMessage } from '../../core/errors';
import type { ApprovalAnswer, ApprovalRequest } from '../../core/tools';
import type { FileChange } from '../../core/tools';
import { splitBom } from '../../core/tools';
import type { LogFn } from '../../protocol/log';
import type { ChangeApprovalHooks } from '../../chat/approvals/approvalFlow';
import type { DiffReveal } from '../../chat/settings/settingsLayer';
import { OriginalContent } from './originalContent';
import { ProposedFileSystem } from './proposedFileSystem';
import { approvalIdOf, ORIGINAL_SCHEME, PROPOSED_SCHEME, proposalUri } from './proposalUris';

/** Settles open approvals; the chat controller's approval flow. */
export interface ApprovalDecider {
  /** False when the approval was no longer open (decided elsewhere, or the run ended). */
  decideApproval(approvalId: string, answer: ApprovalAnswer): Promise<boolean>;
}

/** One file change waiting for the person. */
export interface PendingChange {
  readonly id: string;
  readonly change: FileChange;
  /** Hunk decisions and edits; absent for a deletion (decided as a whole). */
  readonly review: ProposalReview | undefined;
  readonly protected: boolean;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
  readonly title: string;
}

export interface ChangeReviewOptions {
  log: LogFn;
  /** `keel.diff.reveal`, read when a change arrives. */
  reveal(): DiffReveal;
}

/**
 * The file changes waiting for approval, as VS Code shows them: a diff editor per change
 * (left the file as the agent saw it, right the proposal, which the person may edit), hunk
 * decisions, and Accept/Reject from the editor, the palette and keybindings. Every decision
 * goes through the same approval as the chat card's, so the three places act on one change.
 * Nothing here writes to the workspace: the tool applies what the approval carries.
 */
export class ChangeReview implements ChangeApprovalHooks, vscode.Disposable {
  private readonly pending = new Map<string, PendingChange>();
  /** Diff editors being opened, so a change decided meanwhile still gets its editor closed. */
  private readonly opening = new Map<string, Promise<boolean>>();
  private readonly files = new ProposedFileSystem();
  private readonly originals = new OriginalContent();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when proposals or their hunk decisions change (CodeLens refresh). */
  readonly onDidChange: vscode.Event<void> = this.changed.event;
  private readonly disposables: vscode.Disposable[];
  private decider: ApprovalDecider | undefined;

  constructor(private readonly opts: ChangeReviewOptions) {
    this.disposables = [
      vscode.workspace.registerFileSystemProvider(PROPOSED_SCHEME, this.files, { isCaseSensitive: true }),
      vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, this.originals),
      vscode.workspace.onDidChangeTextDocument((event) => this.onEdited(event.document)),
    ];
  }

  /** The flow that settles approvals (set once the controller exists). */
  attach(decider: ApprovalDecider): void {
    this.decider = decider;
  }

  // ---- ChangeApprovalHooks: called by the approval flow ----

  opened(approvalId: string, request: ApprovalRequest): void {
    const change = request.change;
    if (!change) return;
    const review = change.after === null ? undefined : new ProposalReview({ displayPath: change.displayPath, before: change.before, after: change.after });
    const left = proposalUri(ORIGINAL_SCHEME, approvalId, change.displayPath);
    const right = review ? proposalUri(PROPOSED_SCHEME, approvalId, change.displayPath) : proposalUri(ORIGINAL_SCHEME, `${approvalId}-deleted`, change.displayPath);
    this.originals.set(left, review ? review.original : splitBom(change.before ?? '').body);
    if (review) this.files.set(right, review.text);
    else this.originals.set(right, '');
    const name = basename(change.displayPath);
    const what = change.before === null ? vscode.l10n.t('proposed new file') : change.after === null ? vscode.l10n.t('proposed deletion') : vscode.l10n.t('proposed');
    const title = request.protected ? vscode.l10n.t('{0} (Keel: {1}, protected path)', name, what) : vscode.l10n.t('{0} (Keel: {1})', name, what);
    const entry: PendingChange = { id: approvalId, change, review, protected: request.protected, left, right, title };
    this.pending.set(approvalId, entry);
    this.changed.fire();
    const setting = this.opts.reveal();
    // Protected paths always show their diff, whatever the setting says.
    const reveal = request.protected && setting === 'none' ? 'background' : setting;
    if (reveal !== 'none') void this.open(entry, reveal === 'focus');
  }

  async amend(approvalId: string, answer: ApprovalAnswer): Promise<ApprovalAnswer> {
    const entry = this.pending.get(approvalId);
    if (!entry || !answer.approved) return answer;
    let out = answer;
    if (entry.review) {
      this.syncFromEditor(entry);
      const accepted = entry.review.accept();
      if (accepted.content !== entry.change.after || accepted.note) {
        out = { ...answer, content: accepted.content, ...(accepted.note ? { note: accepted.note } : {}) };
      }
    }
    await this.warnIfUnwritable(entry);
    return out;
  }

  closed(approvalId: string): void {
    const entry = this.pending.get(approvalId);
    if (!entry) return;
    this.pending.delete(approvalId);
    this.changed.fire();
    void this.closeEditors(entry).finally(() => {
      this.originals.remove(entry.left);
      this.originals.remove(entry.right);
      this.files.remove(entry.right);
    });
  }

  // ---- what the commands, CodeLens and the chat's "Open diff" use ----

  list(): PendingChange[] {
    return [...this.pending.values()];
  }

  get(approvalId: string): PendingChange | undefined {
    return this.pending.get(approvalId);
  }

  /** The change a Keel diff document belongs to. */
  forUri(uri: vscode.Uri): PendingChange | undefined {
    const id = approvalIdOf(uri);
    return id === undefined ? undefined : (this.pending.get(id) ?? this.pending.get(id.replace(/-deleted$/, '')));
  }

  /** The change of the focused Keel diff, or the only pending one. */
  current(): PendingChange | undefined {
    const editor = vscode.window.activeTextEditor;
    const fromEditor = editor ? this.forUri(editor.document.uri) : undefined;
    if (fromEditor) return fromEditor;
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff) {
      const fromTab = this.forUri(input.modified) ?? this.forUri(input.original);
      if (fromTab) return fromTab;
    }
    return this.pending.size === 1 ? this.pending.values().next().value : undefined;
  }

  /** Opens (or reveals) a change's diff editor. */
  open(entry: PendingChange, focus: boolean): Promise<boolean> {
    const opening = this.show(entry, focus).finally(() => {
      if (this.opening.get(entry.id) === opening) this.opening.delete(entry.id);
    });
    this.opening.set(entry.id, opening);
    return opening;
  }

  private async show(entry: PendingChange, focus: boolean): Promise<boolean> {
    const started = performance.now();
    try {
      // A diff against an empty original always shows that empty line as removed (VS Code's
      // diff maps an empty side as one changed line): a new file is shown as itself instead.
      if (entry.change.before === null && entry.review) await vscode.window.showTextDocument(entry.right, { preview: true, preserveFocus: !focus });
      else await vscode.commands.executeCommand('vscode.diff', entry.left, entry.right, entry.title, { preview: true, preserveFocus: !focus });
    } catch (err) {
      this.opts.log('error', `opening the diff of ${entry.change.displayPath} failed: ${errorMessage(err)}`);
      return false;
    }
    this.opts.log('debug', `diff of ${entry.change.displayPath} shown in ${(performance.now() - started).toFixed(0)} ms`);
    return true;
  }

  decide(approvalId: string, answer: ApprovalAnswer): Promise<boolean> {
    if (!this.decider) return Promise.resolve(false);
    return this.decider.decideApproval(approvalId, answer);
  }

  acceptHunk(entry: PendingChange, index: number): Promise<boolean> {
    if (!entry.review) return Promise.resolve(false);
    this.syncFromEditor(entry);
    entry.review.acceptHunk(index);
    this.changed.fire();
    return this.settleIfDecided(entry);
  }

  async rejectHunk(entry: PendingChange, index: number): Promise<boolean> {
    if (!entry.review) return false;
    this.syncFromEditor(entry);
    const text = entry.review.rejectHunk(index);
    await this.showProposal(entry, text);
    this.changed.fire();
    return this.settleIfDecided(entry);
  }

  dispose(): void {
    for (const entry of this.pending.values()) void this.closeEditors(entry);
    this.pending.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.files.dispose();
    this.originals.dispose();
    this.changed.dispose();
  }

  // ---- helpers ----

  /** Every hunk decided: the change is settled as a whole (all rejected = rejected). */
  private async settleIfDecided(entry: PendingChange): Promise<boolean> {
    const decided = entry.review?.decided();
    if (decided === 'accept') return this.decide(entry.id, { approved: true, scope: 'once' });
    if (decided === 'reject') return this.decide(entry.id, { approved: false, reason: entry.review!.rejectionReason() });
    return false;
  }

  private onEdited(document: vscode.TextDocument): void {
    if (document.uri.scheme !== PROPOSED_SCHEME) return;
    const entry = this.forUri(document.uri);
    if (!entry?.review) return;
    entry.review.setText(document.getText());
    this.changed.fire();
  }

  private syncFromEditor(entry: PendingChange): void {
    if (!entry.review) return;
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.right.toString());
    const text = document ? document.getText() : this.files.text(entry.right);
    if (text !== undefined) entry.review.setText(text);
  }

  /** Shows Keel's new version of the proposal (after a hunk was rejected). */
  private async showProposal(entry: PendingChange, text: string): Promise<void> {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.right.toString());
    if (!document) {
      this.files.set(entry.right, text);
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new Error(vscode.l10n.t('VS Code refused to update the proposal for {0}', entry.change.displayPath));
    }
  }

  /**
   * The tool will refuse to write over a file that changed on disk since the agent read it,
   * or one with unsaved changes in an editor: the person hears it here, the model from the tool.
   */
  private async warnIfUnwritable(entry: PendingChange): Promise<void> {
    const { change } = entry;
    let disk: string | null;
    try {
      disk = await readFile(change.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.opts.log('warn', `checking ${change.displayPath} before applying failed: ${errorMessage(err)}`);
        return;
      }
      disk = null;
    }
    if (disk !== change.before) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Keel did not apply its change to {0}: the file changed on disk after the agent read it, and your version was kept. The agent is asked to read it again.', change.displayPath),
      );
      return;
    }
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === change.path);
    if (open?.isDirty && open.getText() !== (disk ?? '')) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Keel did not apply its change to {0}: it has unsaved changes in an editor, which were kept. Save or revert them; the agent was told.', change.displayPath),
      );
    }
  }

  /** After the decision: the proposal's tabs close (a proposal edited by hand is saved into memory first, so no prompt asks). */
  private async closeEditors(entry: PendingChange): Promise<void> {
    await this.opening.get(entry.id);
    const targets = new Set([entry.left.toString(), entry.right.toString()]);
    for (const document of vscode.workspace.textDocuments) {
      if (!targets.has(document.uri.toString()) || !document.isDirty) continue;
      try {
        await document.save();
      } catch (err) {
        this.opts.log('warn', `clearing the edited proposal of ${entry.change.displayPath} failed: ${errorMessage(err)}`);
      }
    }
    const tabs = vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.filter((tab) => {
        const input = tab.input;
        if (input instanceof vscode.TabInputTextDiff) return targets.has(input.modified.toString()) || targets.has(input.original.toString());
        if (input instanceof vscode.TabInputText) return targets.has(input.uri.toString());
        return false;
      }),
    );
    if (tabs.length === 0) return;
    try {
      await vscode.window.tabGroups.close(tabs, true);
    } catch (err) {
      this.opts.log('warn', `closing the diff of ${entry.change.displayPath} failed: ${errorMessage(err)}`);
    }
  }
}
