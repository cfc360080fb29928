import * as vscode from 'vscode';
import { readKeelSettings } from '../../chat/settings/settingsLayer';
import type { SettingsRead } from '../../chat/settings/settingsLayer';

/**
 * The `keel.*` settings. `checkWorkspaceFiles` also reads the workspace's settings files, where
 * VS Code leaves the personal-only settings a workspace tried to set (it hides them from
 * extensions), so the view can say they were ignored.
 */
export function keelSettings(checkWorkspaceFiles = false): SettingsRead {
  const section = vscode.workspace.getConfiguration('keel');
  if (!checkWorkspaceFiles) return readKeelSettings(section);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const file = vscode.workspace.workspaceFile;
  return readKeelSettings(section, { folders, ...(file?.scheme === 'file' ? { workspaceFile: file.fsPath } : {}) });
}
