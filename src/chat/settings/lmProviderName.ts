/** The model source name of VS Code's language models: they are picked as `vscode-lm/<id>`. */
export const LM_PROVIDER = 'vscode-lm';
