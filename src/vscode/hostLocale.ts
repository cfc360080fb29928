import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';

/**
 * The editor-free layers (src/chat, src/core) translate with `@vscode/l10n`, which knows no
 * language of its own: hand it the bundle VS Code loaded for the display language (none for
 * English), so the host's messages and theirs come from the one catalogue.
 */
export function shareCatalogueWithHostLayers(): void {
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
}
