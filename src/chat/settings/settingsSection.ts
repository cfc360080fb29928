/** The `keel` section, as far as reading it goes (a vscode.WorkspaceConfiguration fits). */
export interface SettingsSection {
  inspect<T>(key: string):
    | { defaultValue?: T; globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T }
    | undefined;
}
