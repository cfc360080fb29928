import * as vscode from 'vscode';
import type { DiagnosticInfo } from './diagnosticsReport';
import { newErrorsReport } from './diagnosticsReport';

/** How long to wait for language servers to report on a saved file. */
const WAIT_MS = 1500;
/** The first report of a language may need its server to start (tsserver takes seconds): one longer wait. */
const COLD_WAIT_MS = 6000;
/**
 * For a file no one reports on yet and that has no editor tab: TypeScript only checks files
 * in tabs, so a long wait there would be for nothing; fast servers still get a moment.
 */
const UNTRACKED_WAIT_MS = 300;
/** After the first report, a moment more for the slower (semantic) pass. */
const SETTLE_MS = 150;
/** Languages without diagnostics worth waiting for. */
const NO_DIAGNOSTICS = new Set(['plaintext', 'markdown', 'log', 'ignore']);
/** Languages whose server has reported, or that had their one long wait. */
const warmLanguages = new Set<string>();

/**
 * Watches one file's diagnostics across a write: started before the edit (so no report is
 * missed), asked afterwards for the errors the write introduced.
 */
export class DiagnosticsWatch {
  private readonly target: string;
  private readonly before: DiagnosticInfo[];
  private reported = false;
  private onReport: (() => void) | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly uri: vscode.Uri) {
    this.target = uri.toString();
    this.before = errorsOf(uri);
    this.subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((u) => u.toString() === this.target)) return;
      this.reported = true;
      this.onReport?.();
    });
  }

  /** Waits for the language server (see the wait constants), then returns the new errors as text. */
  async newErrors(document: vscode.TextDocument, displayPath: string, log: (message: string) => void): Promise<string | undefined> {
    try {
      if (NO_DIAGNOSTICS.has(document.languageId)) return undefined;
      const language = document.languageId;
      const tracked = this.before.length > 0 || vscode.languages.getDiagnostics(this.uri).length > 0 || hasTab(this.uri);
      const waitMs = !tracked ? UNTRACKED_WAIT_MS : warmLanguages.has(language) ? WAIT_MS : COLD_WAIT_MS;
      if (tracked) warmLanguages.add(language);
      const started = Date.now();
      await this.settled(waitMs);
      if (this.reported) warmLanguages.add(language);
      const after = errorsOf(this.uri);
      log(
        `diagnostics of ${displayPath}: ${this.before.length} error(s) before, ${after.length} after; ` +
          `${this.reported ? 'reported' : 'nothing reported'} within ${Date.now() - started} of ${waitMs} ms`,
      );
      return newErrorsReport(displayPath, this.before, after);
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    this.onReport = undefined;
    this.subscription.dispose();
  }

  /** Resolves SETTLE_MS after the latest report, or after waitMs. */
  private settled(waitMs: number): Promise<void> {
    return new Promise((resolve) => {
      let settle: ReturnType<typeof setTimeout> | undefined;
      const done = (): void => {
        clearTimeout(timeout);
        clearTimeout(settle);
        this.onReport = undefined;
        resolve();
      };
      const timeout = setTimeout(done, waitMs);
      this.onReport = () => {
        clearTimeout(settle);
        settle = setTimeout(done, SETTLE_MS);
      };
      if (this.reported) this.onReport();
    });
  }
}

function hasTab(uri: vscode.Uri): boolean {
  const target = uri.toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === target),
  );
}

function errorsOf(uri: vscode.Uri): DiagnosticInfo[] {
  return vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
    .map((d) => {
      const info: DiagnosticInfo = { line: d.range.start.line, character: d.range.start.character, message: d.message };
      if (d.source) info.source = d.source;
      const code = typeof d.code === 'object' ? d.code.value : d.code;
      if (code !== undefined) info.code = code;
      return info;
    });
}
